import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, baseEnv, tempDir } from "./helpers.js";

// A stdout that fails ends the run without a Node stack trace: every path that writes, the shim's
// fast paths (--version, -V, --help) included, ends with one line on a full disk (exit 1) and
// quietly when the reader has gone (EPIPE, exit 0).

const config = tempDir("tokenintel-outfail-");
afterAll(() => config.remove());

const FULL = "tokenintel: could not write the output: no space left on device (ENOSPC)\n";
const LINES = ["--version", "-V", "--help", "market --help", "help config", "version", "config path"];

function exec(
  command: string,
  args: string[],
  stdout: "pipe" | number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: baseEnv(config.path), stdio: ["ignore", stdout, "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.setEncoding("utf8").on("data", (d) => (out += d));
    child.stderr!.setEncoding("utf8").on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

describe("stdout on a full disk (> /dev/full, which Linux always has)", () => {
  it.each(LINES)("tokenintel %s: one line, exit 1, no stack trace", async (line) => {
    const args = line.split(" ");
    const full = openSync("/dev/full", "w");
    try {
      const r = await exec(process.execPath, [BIN, ...args], full);
      expect(r.stderr).toBe(FULL);
      expect(r.code).toBe(1);
    } finally {
      closeSync(full);
    }
  });
});

describe("stdout into a closed pipe (| head -c 0)", () => {
  it.each(LINES)("tokenintel %s: quiet, exit 0", async (line) => {
    const args = line.split(" ");
    // The reader (`true`) has exited before tokenintel starts: its first write meets EPIPE.
    const script = `(sleep 0.3; exec "$0" "$@") | true; echo "exit=\${PIPESTATUS[0]}"`;
    const r = await exec("bash", ["-c", script, process.execPath, BIN, ...args], "pipe");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("exit=0\n");
  });
});
