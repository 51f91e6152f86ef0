import { spawn } from "node:child_process";
import { BIN, baseEnv } from "./helpers.js";

// A command in a real pseudo-terminal (util-linux `script`), as a person runs it: what it draws is
// collected as the screen, escapes and all.

const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

/**
 * The shell command line that runs the built binary with these arguments. `exec`: the binary itself
 * leads the terminal's session, as under a person's shell. Without it `script` runs a shell that
 * waits for the binary, and where that shell is dash (SHELL unset or /bin/sh, as on CI) Ctrl-C kills
 * the shell, so the exit code seen is 130 whatever the binary did.
 */
export function commandLine(args: string[]): string {
  return `exec ${[process.execPath, BIN, ...args].map(sh).join(" ")}`;
}

export interface TerminalSession {
  exited: Promise<number | null>;
  screen(): string;
}

export function inTerminal(
  args: string[],
  configDir: string,
  env: Record<string, string> = {},
): TerminalSession {
  const child = spawn("script", ["-qfec", commandLine(args), "/dev/null"], {
    env: { ...baseEnv(configDir), COLUMNS: "160", LINES: "40", TERM: "xterm-256color", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (screen += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { exited, screen: () => screen };
}

/**
 * The screen as text: a line erased in place (`\r` then erase-line, as the progress line is cleared)
 * gone, colours and other escapes removed, lines without their carriage returns.
 */
export function plain(screen: string): string[] {
  return screen
    .replace(/[^\n]*\r\x1b\[2K/g, "")
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
    .split(/\r?\n/)
    .map((l) => l.replace(/\r/g, ""));
}
