/** Exit codes are part of the public interface: scripts depend on them. */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  /** `tokenintel check --fail-on`: a token reached the risk level named. */
  risk: 3,
  auth: 4,
  payment: 5,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, in one line: the man page, the reference pages and the agent skill say it. */
export const EXIT_MEANINGS: Record<keyof typeof ExitCode, string> = {
  ok: "success (an empty result is a success)",
  error: "API, network or unexpected failure",
  usage: "usage error: a bad flag or value, caught before any request",
  risk: "check --fail-on: a token reached that risk level",
  auth: "authentication: no key where one is needed, or the key was rejected",
  payment: "payment required and not made",
  interrupted: "interrupted (Ctrl-C)",
};

/** What the server answered, kept on an error for `tokenintel api --include`. */
export interface ResponseInfo {
  status: number;
  /** The reason phrase as the server sent it (untrusted). */
  statusText?: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** An error meant for the user: one line, a stable exit code, no stack trace. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  /** The answer behind the error, when there was one. */
  response?: ResponseInfo;
  constructor(message: string, exitCode: ExitCodeValue = ExitCode.error) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** A bad flag or value, caught before any request is made. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** No key where one is needed, or the key was rejected. */
export class AuthError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.auth);
  }
}

/** The server wants a payment that was not made. */
export class PaymentError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.payment);
  }
}

/** `check --fail-on`: some token reached the level the script refuses. */
export class RiskError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.risk);
  }
}

/** The server answered with an error, or with something that is not the API's shape. */
export class ApiError extends CliError {
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** What the server asked for in Retry-After / retry-after-ms, if anything. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    options: { status?: number; retryable?: boolean; retryAfterMs?: number } = {},
  ) {
    super(message, ExitCode.error);
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The request never produced an answer: refused, reset, timed out. */
export class NetworkError extends CliError {
  readonly code: string | undefined;
  /** True when the request provably never reached the server (safe to retry even a POST). */
  readonly notSent: boolean;
  constructor(message: string, options: { code?: string; notSent?: boolean } = {}) {
    super(message, ExitCode.error);
    this.code = options.code;
    this.notSent = options.notSent ?? false;
  }
}

/** The user pressed Ctrl-C (or the run was aborted). */
export class InterruptedError extends CliError {
  constructor() {
    super("interrupted", ExitCode.interrupted);
  }
}
