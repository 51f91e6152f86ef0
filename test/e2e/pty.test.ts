import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, baseEnv, tempDir } from "./helpers.js";

// Runs the binary in a real pseudo-terminal (util-linux `script`), as a person at a terminal would.

const dir = tempDir();
afterAll(() => dir.remove());

function inPty(args: string[], env: Record<string, string> = {}) {
  const command = `exec ${[process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...baseEnv(dir.path), ...env, TERM: "xterm-256color" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (screen += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000) => {
    const start = Date.now();
    while (!pattern.test(screen)) {
      if (Date.now() - start > timeoutMs)
        throw new Error(`timed out waiting for ${pattern}; screen: ${JSON.stringify(screen)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, exited, waitFor, screen: () => screen };
}

describe("in a terminal", () => {
  it("auth login asks for the key without echoing it", async () => {
    const key = `pty_key_${Math.random().toString(36).slice(2)}_zz`;
    const session = inPty(["auth", "login", "--no-verify"]);
    // Typed the moment the prompt shows, as a fast typist or a paste would: the prompt is written
    // only once echo is off, so nothing typed after it may appear (this raced before, under load).
    await session.waitFor(/API key \(input hidden\): /);
    session.child.stdin.write(`${key}\r`);
    expect(await session.exited).toBe(0);
    expect(session.screen()).not.toContain(key);
    expect(session.screen()).toMatch(/key saved to/);
    expect(JSON.parse(readFileSync(join(dir.path, "config.json"), "utf8")).apiKey).toBe(key);
  });
});
