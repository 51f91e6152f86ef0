import { UsageError } from "../../../errors.js";
import type { FlagValues } from "../../../flags/table.js";
import { parseListen } from "./address.js";
import type { HTTP_FLAGS } from "./flags.js";
import { DEFAULT_TOKEN_RATE } from "./rate.js";
import type { HttpOptions } from "./serve.js";

// The flags of `mcp --http` as the server takes them, with their defaults; a flag of --http's
// given without it is a usage error, not a flag quietly ignored.

export const DEFAULT_MAX_SESSIONS = 64;
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
export const DEFAULT_STOP_GRACE_MS = 10_000;

const SPELLING: Record<Exclude<keyof typeof HTTP_FLAGS, "http">, string> = {
  allowedHosts: "--allowed-hosts",
  allowedOrigins: "--allowed-origins",
  maxSessions: "--max-sessions",
  sessionIdle: "--session-idle",
  tokenRate: "--token-rate",
  stopGrace: "--stop-grace",
};

export function httpOptions(
  flags: FlagValues<typeof HTTP_FLAGS>,
  printConfig: string | undefined,
): HttpOptions | undefined {
  if (flags.http === undefined) {
    const given = (Object.keys(SPELLING) as Array<keyof typeof SPELLING>).filter(
      (name) => flags[name] !== undefined,
    );
    if (given.length)
      throw new UsageError(`${given.map((name) => SPELLING[name]).join(", ")} go with --http`);
    return undefined;
  }
  if (printConfig !== undefined)
    throw new UsageError(
      "--print-config prints a stdio server's entry; a client of --http takes its URL and a token",
    );
  return {
    listen: parseListen(flags.http),
    allowedHosts: flags.allowedHosts ?? [],
    allowedOrigins: flags.allowedOrigins ?? [],
    maxSessions: flags.maxSessions ?? DEFAULT_MAX_SESSIONS,
    sessionIdleMs: flags.sessionIdle ?? DEFAULT_SESSION_IDLE_MS,
    tokenRate: flags.tokenRate ?? DEFAULT_TOKEN_RATE,
    stopGraceMs: flags.stopGrace ?? DEFAULT_STOP_GRACE_MS,
  };
}
