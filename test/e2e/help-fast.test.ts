import { spawn } from "node:child_process";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, baseEnv, type RunResult, tempDir } from "./helpers.js";
import { launchPty, plain, sh } from "./terminal-session.js";

// The shim answers `--help` from pages written at build time, without loading the program. Each
// answer must be the program's own: the same bytes on stdout and stderr and the same exit code as
// dist/cli.js (the program, run without the shim), in a pipe and in a terminal of any width.

const PROGRAM = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const dir = tempDir();
afterAll(() => dir.remove());

function node(args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: baseEnv(dir.path),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The screen of a command run in a pseudo-terminal `columns` wide. */
async function inTerminalOf(columns: number, args: string[]): Promise<string> {
  const line = `stty cols ${columns} rows 50; exec ${[process.execPath, ...args].map(sh).join(" ")}`;
  const pty = launchPty(line, { ...baseEnv(dir.path), TERM: "xterm-256color" });
  await pty.exited;
  return plain(pty.screen()).join("\n");
}

describe("--help from the shim", () => {
  const lines = [
    [],
    ["--help"],
    ["-h"],
    ["help"],
    ["help", "market"],
    ["market", "--help"],
    ["ta", "-h"],
    ["config", "set", "--help"],
    ["auth", "login", "--help"],
    ["help", "config", "set"],
    ["help", "nope"],
    ["nope", "--help"],
    ["market", "-c", "base", "--help"],
  ];
  for (const args of lines) {
    it(`tokenintel ${args.join(" ")} answers as the program does`, async () => {
      const [shim, program] = await Promise.all([node([BIN, ...args]), node([PROGRAM, ...args])]);
      expect(shim).toEqual(program);
      expect(shim.stdout.length + shim.stderr.length).toBeGreaterThan(50);
    });
  }

  it("answers --version and --help without the program: a copy of the shim with no bundle beside it", async () => {
    // Only what the shim reads for these two: if a help run loaded dist/cli.js, it would fail here.
    const copy = join(dir.path, "copy");
    mkdirSync(join(copy, "dist"), { recursive: true });
    cpSync(fileURLToPath(new URL("../../bin", import.meta.url)), join(copy, "bin"), { recursive: true });
    for (const f of ["help.cjs", "help.json", "version.cjs", "shim.cjs"])
      cpSync(fileURLToPath(new URL(`../../dist/${f}`, import.meta.url)), join(copy, "dist", f));
    const shim = join(copy, "bin", "tokenintel.js");
    const [help, program] = await Promise.all([
      node([shim, "market", "--help"]),
      node([PROGRAM, "market", "--help"]),
    ]);
    expect(help).toEqual(program);
    expect((await node([shim, "--version"])).code).toBe(0);
    // And the copy is really without the program: anything else says so.
    expect(await node([shim, "market", "-c", "base"])).toMatchObject({ code: 1, stdout: "" });
  });

  for (const columns of [52, 97]) {
    it(`market --help in a terminal ${columns} columns wide wraps as the program does`, async () => {
      const [shim, program] = await Promise.all([
        inTerminalOf(columns, [BIN, "market", "--help"]),
        inTerminalOf(columns, [PROGRAM, "market", "--help"]),
      ]);
      expect(shim).toEqual(program);
      // Laid out for this terminal, not for the 80 columns of a pipe. At 97 the options' lines fit
      // beside their terms; at 52 the descriptions go under them, every line still within 52.
      const piped = (await node([BIN, "market", "--help"])).stdout.trimEnd();
      expect(shim.trimEnd()).not.toEqual(piped);
      const options = shim.split("\n").filter((l) => /^ {2}(-|\s)/.test(l));
      expect(options.length).toBeGreaterThan(30);
      const widest = Math.max(...options.map((l) => l.length));
      expect(widest).toBeLessThanOrEqual(columns);
      // Examples stay as typed, to be copied.
      const wider = shim.split("\n").filter((l) => l.length > columns && !l.startsWith("  $ "));
      expect(wider).toEqual([]);
    });
  }
});
