import { ApiError, UsageError } from "../errors.js";

// URLs: built with every item encoded, shown with the key redacted, and kept to the API's origin.

export type QueryValue = string | number | readonly string[] | undefined;
export type Query = ReadonlyArray<readonly [string, QueryValue]>;

const MAX_REDIRECTS = 5;

/** The URL for a path and query under `base`, with the key added when one is given. */
export function buildUrl(base: URL, path: string, query: Query = [], apiKey?: string): URL {
  const url = new URL(path.replace(/^\/+/, ""), ensureTrailingSlash(base));
  // The parser reads "\\" as "//" and drops tabs and newlines: a path must never name a host.
  assertSameOrigin(url, base);
  const parts: string[] = [];
  for (const [name, value] of query) {
    if (value === undefined) continue;
    const encoded = Array.isArray(value)
      ? value.map((item) => encodeURIComponent(item)).join(",")
      : encodeURIComponent(String(value));
    parts.push(`${encodeURIComponent(name)}=${encoded}`);
  }
  if (apiKey) parts.push(`api_key=${encodeURIComponent(apiKey)}`);
  url.search = parts.join("&");
  return url;
}

/**
 * Where a redirect leads: the same origin only, at most MAX_REDIRECTS times, with the key kept in
 * the query even when the Location dropped it.
 */
export function followRedirect(from: URL, location: string, count: number, apiKey: string | undefined): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ApiError(
      `the server redirected to ${JSON.stringify(location.slice(0, 100))}, which is not a URL; not following it`,
    );
  }
  if (next.origin !== from.origin) {
    throw new ApiError(
      `the server redirected to another origin (${next.origin}); not following it, so the API key stays here`,
    );
  }
  if (count > MAX_REDIRECTS) throw new ApiError(`too many redirects (more than ${MAX_REDIRECTS})`);
  if (from.searchParams.has("api_key") && !next.searchParams.has("api_key") && apiKey) {
    next.search = [next.search.slice(1), `api_key=${encodeURIComponent(apiKey)}`].filter(Boolean).join("&");
  }
  return next;
}

/** Every request goes to the base URL's origin, whatever its path said: refused before it is sent. */
export function assertSameOrigin(url: URL, base: URL | string): void {
  const origin = typeof base === "string" ? base : base.origin;
  if (url.origin !== origin)
    throw new ApiError(
      `refusing to send a request to ${url.origin}: not the API's origin (${origin}); the key only goes there`,
    );
}

/** The URL as it may be shown: the key replaced by ***. */
export function redactUrl(url: URL | string): string {
  const u = new URL(String(url));
  const parts = u.search
    .slice(1)
    .split("&")
    .filter(Boolean)
    .map((pair) => (pair.startsWith("api_key=") ? "api_key=***" : pair));
  u.search = parts.join("&");
  return u.toString();
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** A key never travels over plain http, except to this machine. */
export function assertKeyMayTravel(url: URL): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw new UsageError(
    `refusing to send the API key over ${url.protocol.replace(":", "")} to ${url.hostname}; use an https base URL`,
  );
}

function ensureTrailingSlash(url: URL): URL {
  const u = new URL(url);
  if (!u.pathname.endsWith("/")) u.pathname += "/";
  return u;
}
