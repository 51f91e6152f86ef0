import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { BIN, baseEnv } from "./helpers.js";

// A command in a real pseudo-terminal (util-linux `script`), as a person runs it: what it draws is
// collected as the screen, escapes and all.

export const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

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
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  /** Everything drawn so far, escapes and all. */
  screen(): string;
  /** Resolves once the screen shows `what` (text, pattern or test); throws after `timeoutMs`. */
  waitFor(what: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<void>;
}

/**
 * The one pty launcher of the suite: runs a shell line (`commandLine(args)`, perhaps after a setup
 * such as `stty cols 80;`) in a pseudo-terminal with exactly `env`, killed after `killAfterMs`.
 */
export function launchPty(
  line: string,
  env: Record<string, string | undefined>,
  killAfterMs = 30_000,
): TerminalSession {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const child = spawn("script", ["-qfec", line, "/dev/null"], {
    env: clean,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (screen += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  const waitFor = async (what: string | RegExp | ((s: string) => boolean), timeoutMs = 20_000) => {
    const test =
      typeof what === "function"
        ? what
        : typeof what === "string"
          ? (s: string) => s.includes(what)
          : (s: string) => what.test(s);
    const start = Date.now();
    while (!test(screen)) {
      if (Date.now() - start > timeoutMs)
        throw new Error(
          `timed out waiting for ${String(what)}; screen: ${JSON.stringify(screen.slice(-2000))}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, exited, screen: () => screen, waitFor };
}

/** The built binary in a terminal 160 columns wide (or as `env` says), with a test's config folder. */
export function inTerminal(
  args: string[],
  configDir: string,
  env: Record<string, string> = {},
): TerminalSession {
  return launchPty(commandLine(args), {
    ...baseEnv(configDir),
    COLUMNS: "160",
    LINES: "40",
    TERM: "xterm-256color",
    ...env,
  });
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
