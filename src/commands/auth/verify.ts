import { serverMessage } from "../../api/server-message.js";
import type { RunContext } from "../../context.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { AuthError, CliError, InterruptedError, PaymentError } from "../../errors.js";

// `auth status` and `auth login` ask the service whether it takes a key, with one request that
// costs the least a key-only endpoint allows: the market endpoint (the key is required
// there, so no x402 offer stands in for it) asked for one token, never from the response cache.
// The run's client pays nothing unless --pay is given, and this request never asks it to.

/** The request: one documented token on the market endpoint (at most one record comes back). */
export const CHECK_PATH = ENDPOINTS.market.path;
export const CHECK_QUERY = [
  ["chain", "base"],
  [ENDPOINTS.market.selectors.ticker, "VIRTUAL"],
] as const;

export type KeyCheck =
  /** The service answered with data. */
  | { verdict: "accepted"; server: string }
  /** 401/403 (or 402: the key buys nothing free): the key is not good for the service. */
  | { verdict: "rejected"; server: string; reason: string }
  /** No verdict: the network, a timeout, a 5xx, an answer that is not the API's. */
  | { verdict: "unchecked"; server: string; reason: string };

/** Asks the service about `key` (the settings' key when undefined). */
export async function checkKey(ctx: RunContext, key?: string): Promise<KeyCheck> {
  const client = await ctx.client({
    keyRequired: true,
    apiKey: key,
    fresh: true,
    estimate: { requests: 1, exact: true },
  });
  const server = ctx.settings.globals.sandbox ? "the sandbox" : client.baseUrl.origin;
  try {
    await client.request(CHECK_PATH, { query: [...CHECK_QUERY], label: "key check" });
    return { verdict: "accepted", server };
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    const status = error instanceof CliError ? error.response?.status : undefined;
    if (error instanceof AuthError || status === 401 || status === 403) {
      return { verdict: "rejected", server, reason: `HTTP ${status ?? "401"}${detail(error)}` };
    }
    if (error instanceof PaymentError || status === 402) {
      // A key the service takes is never asked to pay on a key-only endpoint: nothing was paid.
      return {
        verdict: "rejected",
        server,
        reason: "HTTP 402: the service asked for a payment instead of taking the key; nothing was paid",
      };
    }
    if (error instanceof CliError) return { verdict: "unchecked", server, reason: error.message };
    throw error;
  }
}

/** The server's own words from the answer, if it said any: ": Invalid API key" (bounded). */
function detail(error: unknown): string {
  const text = error instanceof CliError ? error.response?.text : undefined;
  if (!text) return "";
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Plain text: serverMessage takes it as it is (never an HTML page).
  }
  const said = serverMessage(body);
  return said ? `: ${said}` : "";
}

/** The key was rejected: exit 4. `after` ends the line ("; nothing saved"). */
export function rejectedError(
  check: KeyCheck & { verdict: "rejected" },
  what: string,
  after = "",
): AuthError {
  return new AuthError(`${what} was rejected by ${check.server} (${check.reason})${after}`);
}

/** No verdict: exit 1, and say so. */
export function uncheckedError(
  check: KeyCheck & { verdict: "unchecked" },
  what: string,
  after = "",
): CliError {
  return new CliError(`${what} could not be checked against ${check.server}: ${check.reason}${after}`);
}
