import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, baseEnv, type RunResult, tempDir } from "./helpers.js";
import { plain } from "./terminal-session.js";

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
function inTerminalOf(columns: number, args: string[]): Promise<string> {
  const line = ["stty", "cols", String(columns), "rows", "50;", process.execPath, ...args]
    .map((a) => (a.endsWith(";") ? a : `'${a.replace(/'/g, "'\\''")}'`))
    .join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", line, "/dev/null"], {
      env: { ...baseEnv(dir.path), TERM: "xterm-256color" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (screen += d));
    child.on("error", reject);
    child.on("close", () => resolve(plain(screen).join("\n")));
  });
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

  for (const columns of [52, 97]) {
    it(`market --help in a terminal ${columns} columns wide wraps as the program does`, async () => {
      const [shim, program] = await Promise.all([
        inTerminalOf(columns, [BIN, "market", "--help"]),
        inTerminalOf(columns, [PROGRAM, "market", "--help"]),
      ]);
      expect(shim).toEqual(program);
      // Laid out for this terminal, not for the 80 columns of a pipe. At 97 the options' lines fit;
      // at 52 their description column would be narrower than 40, and commander does not wrap it.
      const piped = (await node([BIN, "market", "--help"])).stdout.trimEnd();
      expect(shim.trimEnd()).not.toEqual(piped);
      const options = shim.split("\n").filter((l) => /^ {2}(-|\s)/.test(l));
      expect(options.length).toBeGreaterThan(30);
      const widest = Math.max(...options.map((l) => l.length));
      if (columns > 80) expect(widest).toBeLessThanOrEqual(columns);
      else expect(widest).toBeGreaterThan(columns);
    });
  }
});
