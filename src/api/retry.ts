import { ApiError, type CliError, NetworkError } from "../errors.js";

// When a failed request is tried again, and after how long: full-jitter exponential backoff,
// the server's Retry-After (seconds or a date) or retry-after-ms, and a budget per request.

export const RETRY_STATUSES = new Set([408, 423, 425, 429, 500, 502, 503, 504]);
export const THROTTLE_STATUSES = new Set([423, 429]);
const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
  "UND_ERR_CLOSED",
  "TIMEOUT",
]);
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 15_000;
/** The most one request may spend waiting between attempts. */
export const RETRY_BUDGET_MS = 90_000;

/** Whether a failure may be tried again: GETs on transient failures, a POST only if never sent. */
export function isRetryable(error: CliError, method: string): boolean {
  if (method !== "GET") return error instanceof NetworkError && error.notSent;
  if (error instanceof NetworkError) return error.code !== undefined && RETRYABLE_CODES.has(error.code);
  if (error instanceof ApiError) return error.retryable;
  return false;
}

/** How long to wait before attempt `attempt + 1`: what the server asked, else full jitter. */
export function backoffMs(attempt: number, retryAfter: number | undefined, random: () => number): number {
  if (retryAfter !== undefined) return Math.max(0, retryAfter);
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

export function retryAfterMs(
  headers: Record<string, string | string[] | undefined>,
  now = Date.now(),
): number | undefined {
  const ms = headers["retry-after-ms"];
  if (typeof ms === "string" && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const ra = headers["retry-after"];
  if (typeof ra !== "string") return undefined;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Math.ceil(Number(ra) * 1000);
  // Otherwise only an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`) is read: "-5" or "soon" is not
  // a date (Date.parse took "-5" for the year -5, and the retry went out at once) but no value at
  // all, and the backoff decides.
  if (!/^[A-Za-z]{3},? /.test(ra.trim())) return undefined;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
