import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { InterruptedError, UsageError } from "./errors.js";
import { asciiLocale, toAscii, writeNumbersForAscii } from "./terminal/charset.js";
import { escapeForTerminal, sanitizeInline } from "./terminal/sanitize.js";
import { redactSecrets, type SecretForms, secretForms } from "./terminal/secrets.js";
export type ColorMode = "auto" | "always" | "never";

/** The most standard input a command reads (a list, a question, a body): as much as an @file. */
export const MAX_INPUT_BYTES = 4 * 1024 * 1024;

export interface IOOptions {
  stdin?: NodeJS.ReadStream | (Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown });
  stdout?: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr?: Writable & { isTTY?: boolean; columns?: number };
  env?: NodeJS.ProcessEnv;
  color?: ColorMode;
  /**
   * Whether input may name local sources (`@file`, `-` for stdin). Off for an MCP tool call: what an
   * agent sends is data, never a path.
   */
  readsLocal?: boolean;
  /** Share this IO's secrets (a tool call's IO masks every secret its server knows, now or later). */
  secretsOf?: IO;
}

/**
 * Everything about the terminal is decided here. stdout carries data only; status, progress,
 * warnings and errors go to stderr. Every stderr line passes through the secret redactor.
 */
export class IO {
  readonly stdin: NonNullable<IOOptions["stdin"]>;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  color: boolean;
  /** --color always: JSON into a pipe is coloured only when asked for by name, never by FORCE_COLOR. */
  private colorAlways = false;
  readonly env: NodeJS.ProcessEnv;
  private readonly secrets: Map<string, SecretForms>;
  /** Whether `@file` and `-` name local sources (false in an MCP tool call: they are refused). */
  readonly readsLocal: boolean;
  private stdoutClosed = false;
  /** --no-pager turns the pager off for the run. */
  pagerEnabled = true;
  /** The pager showing the output now, if any: Ctrl-C is its own (less stays open) while it runs. */
  private pager: ChildProcess | undefined;
  /** A terminal whose locale is not UTF-8: drawing symbols are written as ASCII (terminal/charset.ts). */
  private readonly stdoutAscii: boolean;
  private readonly stderrAscii: boolean;
  /** Called once when the reader of stdout goes away; the CLI ends the run quietly. */
  onStdoutClosed: () => void = () => {};
  /** Called once when stdout fails otherwise (a full disk: ENOSPC); the CLI says so and exits 1. */
  onStdoutFailed: (error: NodeJS.ErrnoException) => void = () => {};

  constructor(options: IOOptions = {}) {
    const env = options.env ?? process.env;
    this.env = env;
    this.readsLocal = options.readsLocal ?? true;
    // Shared, not copied: a key the server learns after the call started (the stored key, read when
    // the first client is made) is masked in that call too.
    this.secrets = options.secretsOf?.secrets ?? new Map();
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    const forceTTY = env.TOKENINTEL_FORCE_TTY === "1";
    this.stdoutIsTTY = forceTTY || Boolean((this.stdout as { isTTY?: boolean }).isTTY);
    this.stderrIsTTY = forceTTY || Boolean((this.stderr as { isTTY?: boolean }).isTTY);
    this.color = decideColor(options.color ?? "auto", env, this.stdoutIsTTY);
    const ascii = asciiLocale(env);
    this.stdoutAscii = ascii && this.stdoutIsTTY;
    this.stderrAscii = ascii && this.stderrIsTTY;
    writeNumbersForAscii(this.stdoutAscii);
    this.colorAlways = options.color === "always";
    this.stdout.on?.("error", (error: NodeJS.ErrnoException) => {
      // The reader went away (`| head -1`): stop writing, end quietly.
      if (error.code === "EPIPE") {
        if (!this.stdoutClosed) {
          this.stdoutClosed = true;
          this.onStdoutClosed();
        }
        return;
      }
      if (!this.stdoutClosed) {
        this.stdoutClosed = true;
        this.onStdoutFailed(error);
      }
    });
  }

  /**
   * The terminal's width now (a resized terminal reports its new size): the terminal's own, else
   * $COLUMNS, else 100.
   */
  get columns(): number {
    return this.terminalSize("columns", "COLUMNS") ?? 100;
  }

  /** The terminal's height now, else $LINES; undefined when neither is known (nothing to fit). */
  get rows(): number | undefined {
    return this.terminalSize("rows", "LINES");
  }

  private terminalSize(dimension: "columns" | "rows", variable: string): number | undefined {
    const own = (this.stdout as { columns?: number; rows?: number })[dimension];
    if (own !== undefined && Number.isFinite(own) && own > 0) return own;
    const fromEnv = Number(this.env[variable]);
    return Number.isFinite(fromEnv) && fromEnv > 0 ? Math.floor(fromEnv) : undefined;
  }

  /**
   * Calls `listener` whenever the terminal on stdout is resized (SIGWINCH); `columns` and `rows`
   * already hold the new size. Returns the unsubscribe.
   */
  onResize(listener: () => void): () => void {
    const stdout = this.stdout;
    stdout.on?.("resize", listener);
    return () => void stdout.off?.("resize", listener);
  }

  setColorMode(mode: ColorMode): void {
    this.color = decideColor(mode, this.env, this.stdoutIsTTY);
    this.colorAlways = mode === "always";
  }

  /** Registers a value (an API key) that must never reach stderr, in any encoding. */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4 && !this.secrets.has(value)) this.secrets.set(value, secretForms(value));
  }

  /** Replaces every registered secret, raw, percent-, form-, JSON- or base64-encoded, with ***. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets.values());
  }

  /** Writes data to stdout, secrets redacted. Resolves when the stream accepts more (backpressure). */
  async out(chunk: string): Promise<void> {
    if (this.stdoutClosed) return;
    // Redacted too: a server that echoes the key must not get it into a pipe, a log or a screen.
    if (!this.stdout.write(this.forStdout(this.redact(chunk)))) {
      await new Promise<void>((resolve) => this.stdout.once("drain", resolve));
    }
  }

  private forStdout(text: string): string {
    return this.stdoutAscii ? toAscii(text) : text;
  }

  /** Text for stderr as the terminal there can show it. */
  forStderr(text: string): string {
    return this.stderrAscii ? toAscii(text) : text;
  }

  /**
   * Writes text that came from the server to stdout: on a terminal its control characters become
   * visible \uXXXX escapes (still the same JSON); piped, it goes out byte for byte.
   */
  outServerText(text: string): Promise<void> {
    return this.out(this.stdoutIsTTY ? escapeForTerminal(text) : text);
  }

  /**
   * Writes JSON text to stdout: one document, or NDJSON lines with `lines`. Piped, byte for byte as
   * given (made for jq). On a terminal, a document is indented and, with colour on, coloured like
   * jq's; NDJSON keeps one record a line. Server strings are made inert (escapeForTerminal) before
   * any colour is added. `--color always` colours a pipe too, keeping its layout. Text that is not
   * JSON (an `api` body may be anything) is shown as outServerText shows it.
   */
  async outJson(text: string, lines = false): Promise<void> {
    const color = this.color && (this.stdoutIsTTY || this.colorAlways);
    if (!this.stdoutIsTTY && !color) return this.out(text);
    const { formatJsonForTerminal } = await import("./terminal/json.js");
    const shown = formatJsonForTerminal(text, { indent: this.stdoutIsTTY && !lines, color });
    return this.out(shown ?? escapeForTerminal(text));
  }

  /** Whether a pager is showing the output now (the CLI leaves Ctrl-C to it). */
  get paging(): boolean {
    return this.pager !== undefined;
  }

  /** Ends the pager, if one runs (the run is ending on SIGTERM: no pager left behind on the terminal). */
  endPager(): void {
    this.pager?.kill();
  }

  /**
   * Writes text a person reads screen by screen (a table), as git and gh do: on a terminal, when it
   * has more lines than the screen can show above the prompt, through the pager (TOKENINTEL_PAGER,
   * else PAGER, else `less -FRX`; empty or "cat": none; --no-pager: none); resolves when the pager
   * has ended. Everything else goes to stdout as out() writes it. A pager that cannot be started
   * costs one warning line, and the text is written directly. The pager quitting before the end
   * (q in less) is the reader being done: the run goes on, exit 0.
   */
  async outPaged(text: string): Promise<void> {
    const rows = this.rows;
    const isTerminal = Boolean((this.stdout as { isTTY?: boolean }).isTTY);
    const command =
      this.pagerEnabled && isTerminal && rows !== undefined ? pagerCommand(this.env) : undefined;
    if (command === undefined || this.stdoutClosed || lineCount(text) < rows!) return this.out(text);
    const { spawn } = await import("node:child_process");
    // As git does, for whatever pager runs: LESS=FRX (-F quit when it fits, -R show colours, -X
    // leave the screen as is) and LV=-c (lv shows colours) unless the user set them. PAGER=less
    // with LESS unset showed the table's colours as raw escape codes. And less reads what it is
    // given as the text is written: UTF-8 unless the locale asks for ASCII (with no locale set,
    // less took each byte of … and ₇ for a character of its own and broke the lines).
    const env = {
      ...this.env,
      ...(this.env.LESS === undefined ? { LESS: "FRX" } : {}),
      ...(this.env.LV === undefined ? { LV: "-c" } : {}),
      ...(this.stdoutAscii || this.env.LESSCHARSET !== undefined || this.env.LESSCHARDEF !== undefined
        ? {}
        : { LESSCHARSET: "utf-8" }),
    };
    // A plain command line runs as it is (the pager alone gets Ctrl-C); one with shell syntax through sh, as git does.
    const [program, ...args] = /[|&;<>()$`\\"'*?[#~=%]/.test(command.line)
      ? ["sh", "-c", command.line]
      : command.line.split(/\s+/);
    const child = spawn(program!, args, { stdio: ["pipe", "inherit", "inherit"], env });
    this.pager = child;
    let result: { code: number | null; signal: NodeJS.Signals | null; failed?: boolean };
    try {
      result = await new Promise((resolve) => {
        child.once("error", () => resolve({ code: null, signal: null, failed: true }));
        child.once("close", (code, signal) => resolve({ code, signal }));
        // The pager closing its input early (the user pressed q) is the reader being done: not an error.
        child.stdin!.on("error", () => {});
        child.stdin!.end(this.forStdout(this.redact(text)));
      });
    } finally {
      // A Ctrl-C typed while the pager ran reached tokenintel too, and may be read in the same
      // turn of the event loop as the pager's end (Node 26's libuv learns of a child's exit on
      // its own descriptor): it is still the pager's, so the pager counts as running until the
      // next turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.pager = undefined;
    }
    if (result.failed || result.code === 126 || result.code === 127) {
      this.warn(
        `pager "${command.line}" not found; showing the output without it (set PAGER, or --no-pager)`,
      );
      return this.out(text);
    }
    if (result.signal === "SIGINT") throw new InterruptedError();
  }

  /** One line to stderr, redacted and stripped of control characters. */
  err(line: string): void {
    // Redacted before and after: stripping a control character must not join a key back together.
    this.stderr.write(`${this.forStderr(this.redact(sanitizeInline(this.redact(line))))}\n`);
  }

  /** Says nothing but errors and warnings on stderr (--quiet). */
  quiet = false;

  /** A status line for stderr ("key saved to ..."), left out under --quiet. */
  info(line: string): void {
    if (!this.quiet) this.err(line);
  }

  warn(message: string): void {
    this.err(`tokenintel: warning: ${message}`);
  }

  get stdinIsTTY(): boolean {
    return Boolean(this.stdin.isTTY);
  }

  /**
   * All of standard input, as text. `what` names the input for the message when stdin is a
   * terminal (nobody piped anything in, so reading would wait forever).
   */
  async readInput(what: string, maxBytes = MAX_INPUT_BYTES): Promise<string> {
    if (!this.readsLocal) throw new UsageError(`${what}: standard input is never read in a tool call`);
    if (this.stdinIsTTY)
      throw new UsageError(`${what} reads standard input, but it is a terminal; pipe the input in`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.stdin) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      // Bounded like @file: `yes | tokenintel … -` must end in a line, not in a gigabyte of memory.
      if (size > maxBytes) {
        (this.stdin as Readable).destroy?.();
        throw new UsageError(`${what}: standard input is larger than ${maxBytes / 1024 / 1024} MiB`);
      }
      chunks.push(buffer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  /** Reads a line from the terminal without echoing it; raw mode is on before the prompt shows. */
  promptHidden(prompt: string): Promise<string> {
    const stdin = this.stdin as NodeJS.ReadStream;
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    this.stderr.write(prompt);
    return new Promise((resolve, reject) => {
      let value = "";
      const finish = (error?: Error) => {
        stdin.setRawMode(false);
        stdin.pause();
        stdin.off("data", onData);
        this.stderr.write("\n");
        if (error) reject(error);
        else resolve(value);
      };
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === "\r" || ch === "\n") return finish();
          if (ch === "\u0003") return finish(new InterruptedError());
          if (ch === "\u0004") return finish();
          if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
          else if (ch >= " ") value += ch;
        }
      };
      stdin.on("data", onData);
      stdin.resume();
    });
  }
}

/** The pager to use, from the environment: TOKENINTEL_PAGER, else PAGER, else `less -FRX`; undefined for none. */
export function pagerCommand(env: NodeJS.ProcessEnv): { line: string; isDefault: boolean } | undefined {
  const chosen = env.TOKENINTEL_PAGER ?? env.PAGER;
  if (chosen === undefined) return { line: "less -FRX", isDefault: true };
  const line = chosen.trim();
  return line === "" || line === "cat" ? undefined : { line, isDefault: false };
}

function lineCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

export function decideColor(mode: ColorMode, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.TERM === "dumb") return false;
  return isTTY;
}
