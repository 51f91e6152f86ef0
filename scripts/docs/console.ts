import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { run } from "../../src/entry/run.js";
import { inProcessPlan } from "./lines.js";

// The outputs the docs show: a `console` block is one `$ tokenintel ...` line and what it printed,
// on the sandbox, as a terminal 100 columns wide without colour would show it, with the clock set
// to DOCS_CLOCK (history's days count back from today; the sandbox's records are dated a few days
// before it). The generator (scripts/reference.ts) writes them with runConsoleLine(), and the
// examples test runs every block again and compares: an output a doc shows is what the program prints.

/** The moment the docs' examples run at: 2026-11-26 12:00 UTC. */
export const DOCS_CLOCK = Date.UTC(2026, 10, 26, 12, 0, 0);
/** The terminal's width the docs' tables are laid out for. */
export const DOCS_COLUMNS = 100;
/** The most lines of output a block shows; the rest is counted in its last line. */
export const MAX_OUTPUT_LINES = 25;

/**
 * Runs `work` with the global Date set forward (or back) to start at `at` and run on from there at
 * the real pace, so that timers, timeouts and the lock's waits keep their meaning.
 */
export async function withClock<T>(at: number, work: () => Promise<T>): Promise<T> {
  const Real = Date;
  const offset = at - Real.now();
  function Shifted(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new Real(Real.now() + offset).toString();
    return args.length === 0 ? new Real(Real.now() + offset) : Reflect.construct(Real, args, Real);
  }
  Object.setPrototypeOf(Shifted, Real);
  Shifted.prototype = Real.prototype;
  Shifted.now = () => Real.now() + offset;
  globalThis.Date = Shifted as unknown as DateConstructor;
  try {
    return await work();
  } finally {
    globalThis.Date = Real;
  }
}

/** What a console line printed and how it ended. */
export interface ConsoleOutcome {
  code: number;
  /** stdout, the folder it ran in shown as ~, each line without trailing spaces. */
  output: string;
}

/** The environment of a docs run: a fresh home of its own, a UTF-8 terminal (when `terminal`), no pager. */
function consoleEnv(home: string, terminal: boolean): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    COLUMNS: String(DOCS_COLUMNS),
    TOKENINTEL_PAGER: "",
    TOKENINTEL_CONFIG_DIR: join(home, ".config", "tokenintel"),
    TOKENINTEL_CACHE_DIR: join(home, ".cache", "tokenintel"),
    TOKENINTEL_DATA_DIR: join(home, ".local", "share", "tokenintel"),
    ...(terminal ? { TOKENINTEL_FORCE_TTY: "1" } : {}),
  };
}

function bash(text: string, input: string, env: NodeJS.ProcessEnv, cwd: string) {
  return spawnSync("bash", ["-c", `set -o pipefail\n${text}`], { cwd, env, input, encoding: "utf8" });
}

async function runTokenintel(words: string[], env: NodeJS.ProcessEnv, input: string) {
  let stdout = "";
  const stdin = new PassThrough();
  stdin.end(input);
  const sink = (keep: boolean) =>
    new Writable({
      write(chunk, _encoding, done) {
        if (keep) stdout += String(chunk);
        done();
      },
    });
  const code = await withClock(DOCS_CLOCK, () =>
    run(words, { stdin, stdout: sink(true), stderr: sink(false), env, signals: new EventEmitter() }),
  );
  return { code, stdout };
}

/** Output as the docs keep it: the run's folder as ~, no trailing spaces, no trailing blank lines. */
export function normalizeOutput(text: string, home: string): string {
  return text
    .split(home)
    .join("~")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "");
}

/**
 * Runs one docs line (`tokenintel ...`, with commands piped into it or after it) the way the docs
 * show it: tokenintel in-process at DOCS_CLOCK on a terminal (unless its output is piped on), the
 * other commands through bash. Throws for a line that needs bash around tokenintel itself.
 */
export async function runConsoleLine(line: string): Promise<ConsoleOutcome> {
  const plan = inProcessPlan(line);
  if (!plan) throw new Error(`a console block runs tokenintel in-process; bash would have to run: ${line}`);
  const home = mkdtempSync(join(tmpdir(), "tokenintel-docs-"));
  try {
    const env = consoleEnv(home, plan.after?.join !== "|");
    const fed = plan.before === undefined ? undefined : bash(plan.before, "", env, home);
    let { code, stdout } = await runTokenintel(plan.words, env, fed?.stdout ?? "");
    if (code === 0 && fed && fed.status !== 0) code = fed.status ?? 1;
    if (plan.after && (plan.after.join === "|" || code === 0)) {
      const then = bash(plan.after.text, plan.after.join === "|" ? stdout : "", env, home);
      stdout = plan.after.join === "|" ? then.stdout : stdout + then.stdout;
      if (then.status !== 0) code = then.status ?? 1;
    }
    return { code, output: normalizeOutput(stdout, home) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The output a block shows: at most MAX_OUTPUT_LINES lines, then how many more there were. */
export function shownOutput(output: string): string {
  const lines = output === "" ? [] : output.split("\n");
  if (lines.length <= MAX_OUTPUT_LINES) return lines.join("\n");
  const more = lines.length - MAX_OUTPUT_LINES;
  return [...lines.slice(0, MAX_OUTPUT_LINES), `… (${more} more line${more === 1 ? "" : "s"})`].join("\n");
}
