import type { Writable } from "node:stream";
import { escapeForTerminal, sanitizeInline } from "./output/sanitize.js";
import { redactSecrets, secretPattern } from "./output/secrets.js";

export type ColorMode = "auto" | "always" | "never";

export interface IOOptions {
  stdout?: Writable & { isTTY?: boolean; columns?: number };
  stderr?: Writable & { isTTY?: boolean; columns?: number };
  env?: NodeJS.ProcessEnv;
  color?: ColorMode;
}

/**
 * Everything about the terminal is decided here. stdout carries data only; status, progress,
 * warnings and errors go to stderr. Every stderr line passes through the secret redactor.
 */
export class IO {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  color: boolean;
  readonly columns: number;
  readonly env: NodeJS.ProcessEnv;
  private readonly secrets = new Map<string, RegExp>();
  private stdoutClosed = false;
  /** Called once when the reader of stdout goes away; the CLI ends the run quietly. */
  onStdoutClosed: () => void = () => {};
  /** Called once when stdout fails otherwise (a full disk: ENOSPC); the CLI says so and exits 1. */
  onStdoutFailed: (error: NodeJS.ErrnoException) => void = () => {};

  constructor(options: IOOptions = {}) {
    const env = options.env ?? process.env;
    this.env = env;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    const forceTTY = env.TOKENINTEL_FORCE_TTY === "1";
    this.stdoutIsTTY = forceTTY || Boolean((this.stdout as { isTTY?: boolean }).isTTY);
    this.stderrIsTTY = forceTTY || Boolean((this.stderr as { isTTY?: boolean }).isTTY);
    this.color = decideColor(options.color ?? "auto", env, this.stdoutIsTTY);
    const cols = (this.stdout as { columns?: number }).columns ?? Number(env.COLUMNS);
    this.columns = Number.isFinite(cols) && cols > 0 ? cols : 100;
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

  setColorMode(mode: ColorMode): void {
    this.color = decideColor(mode, this.env, this.stdoutIsTTY);
  }

  /** Registers a value (an API key) that must never reach stderr, in any encoding. */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4 && !this.secrets.has(value)) this.secrets.set(value, secretPattern(value));
  }

  /** Replaces every registered secret, raw, percent-, form-, JSON- or base64-encoded, with ***. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets.values());
  }

  /** Writes data to stdout, secrets redacted. Resolves when the stream accepts more (backpressure). */
  async out(chunk: string): Promise<void> {
    if (this.stdoutClosed) return;
    // Redacted too: a server that echoes the key must not get it into a pipe, a log or a screen.
    if (!this.stdout.write(this.redact(chunk))) {
      await new Promise<void>((resolve) => this.stdout.once("drain", resolve));
    }
  }

  /**
   * Writes text that came from the server to stdout: on a terminal its control characters become
   * visible \uXXXX escapes (still the same JSON); piped, it goes out byte for byte.
   */
  outServerText(text: string): Promise<void> {
    return this.out(this.stdoutIsTTY ? escapeForTerminal(text) : text);
  }

  /** One line to stderr, redacted and stripped of control characters. */
  err(line: string): void {
    // Redacted before and after: stripping a control character must not join a key back together.
    this.stderr.write(`${this.redact(sanitizeInline(this.redact(line)))}\n`);
  }

  warn(message: string): void {
    this.err(`tokenintel: warning: ${message}`);
  }
}

export function decideColor(mode: ColorMode, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.TERM === "dumb") return false;
  return isTTY;
}
