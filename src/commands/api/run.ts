import { readFile } from "node:fs/promises";
import type { ApiClient, Query } from "../../api/client.js";
import type { Requester } from "../../api/pager.js";
import { inPaymentOrder } from "../../api/pay-order.js";
import { streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { ENDPOINTS, type EndpointSpec, pathsOf } from "../../contract/endpoints.js";
import { CliError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import type { IO } from "../../io.js";
import { parseJson } from "../../json/exact.js";
import { createWriter } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import type apiCommand from "./index.js";
import { statusLine } from "./status-line.js";

type ApiOptions = FlagValues<typeof apiCommand.flags>;

type FieldValue = string | number | boolean | null;

/** `key=value` → [key, value]; with `typed`, numbers, true/false, null and @file are understood. */
export async function parseField(
  flag: string,
  text: string,
  typed: boolean,
  read: (path: string) => Promise<string> = (path) => readFile(path, "utf8"),
): Promise<[string, FieldValue]> {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new UsageError(`${flag}: expected key=value, got ${JSON.stringify(text)}`);
  const key = text.slice(0, eq);
  const value = text.slice(eq + 1);
  if (key === "api_key")
    throw new UsageError(`${flag}: the key is added for you; use --api-key or 'auth login'`);
  if (!typed) return [key, value];
  if (value.startsWith("@")) return [key, await read(value.slice(1))];
  if (value === "true") return [key, true];
  if (value === "false") return [key, false];
  if (value === "null") return [key, null];
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value) && Number.isFinite(Number(value)))
    return [key, Number(value)];
  return [key, value];
}

/** A file's text, or standard input's for "-". */
async function readSource(io: IO, path: string): Promise<string> {
  if (path === "-") return io.readInput("'-'");
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** Turns the user's path into one under the base URL; full URLs must not leave its origin. */
/**
 * The path under the base URL that a user typed, and the query parameters written in it
 * (`/v1/agents?chain=base`, as `gh api` takes them): a full URL is accepted for the API's origin
 * only; a backslash or a control character, which URL parsing would read as "/" or drop, is refused.
 */
export function apiTarget(input: string, baseUrl: URL): { path: string; query: Array<[string, string]> } {
  // A backslash reads as a slash, and tabs and newlines vanish, when a URL is parsed: either could
  // turn the path into another host (a path of backslash, backslash, evil.example/v1/x; or a tab
  // then //evil.example/x).
  const bad = /[\\\u0000-\u001f\u007f-\u009f]/.exec(input);
  if (bad) {
    const what =
      bad[0] === "\\"
        ? "a backslash"
        : `a control character (U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")})`;
    throw new UsageError(
      `api: the path holds ${what}; write it with forward slashes and printable characters`,
    );
  }
  let path: string;
  let search: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(input)) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new UsageError(`api: "${input}" is not a URL nor a path under the base URL`);
    }
    if (url.origin !== baseUrl.origin) {
      throw new UsageError(
        `api: ${url.origin} is not the API's origin (${baseUrl.origin}); the key only goes there`,
      );
    }
    path = url.pathname;
    search = url.search;
  } else {
    const at = input.indexOf("?");
    path = `/${(at < 0 ? input : input.slice(0, at)).replace(/^\/+/, "")}`;
    search = at < 0 ? "" : input.slice(at);
  }
  const query = [...new URLSearchParams(search.replace(/#.*$/, ""))];
  if (query.some(([key]) => key === "api_key"))
    throw new UsageError("api: the key goes with 'auth login' or TOKENINTEL_API_KEY, never in the path");
  return { path, query };
}

export async function runApi(ctx: RunContext, pathArg: string, raw: ApiOptions): Promise<void> {
  const method = raw.method ?? "GET";
  const { fields, rawBody } = await readInputs(ctx, method, raw);
  checkWalkFlags(method, raw);
  const payment = await paymentOptions(ctx, raw);
  const client = await ctx.client({
    keyRequired: false,
    payment,
    estimate: raw.paginate ? { requests: undefined, exact: false } : { requests: 1, exact: true },
  });
  const request = { method, ...requestParts(apiTarget(pathArg, client.baseUrl), method, fields, rawBody) };
  if (payment?.dryRun) {
    const { planPayment } = await import("../../payment/dry-run.js");
    const { query } = request;
    const first = raw.paginate ? [...query.filter(([key]) => key !== "page"), ["page", 1] as const] : query;
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, { ...request, query: first })}`);
    return;
  }
  const priced = withListPrice(client, request.path);
  if (raw.paginate) return walkPages(ctx, priced, request, raw, Boolean(payment));
  await sendOnce(ctx, priced, request, raw);
}

/**
 * The client for a path of the registry carries the registry's price with each request: a paying
 * run refuses an offer above it unless --max-payment says how much a request may cost.
 */
function withListPrice(client: ApiClient, path: string): Requester {
  // As the request will reach it: dot segments resolved (/v1/agents/. is /v1/agents/), and with or
  // without its last slash (/v1/crypto-market answers 301 to /v1/crypto-market/, whose 402 is paid).
  const bare = (at: string) => new URL(at, "http://x").pathname.replace(/\/+$/, "");
  const asked = bare(path);
  const entry = Object.values(ENDPOINTS as Record<string, EndpointSpec>).find((endpoint) =>
    pathsOf(endpoint).some((known) => bare(known) === asked),
  );
  if (!entry) return client;
  const listPrice = { usdc: entry.price, of: path };
  return { request: (at, options) => client.request(at, { ...options, listPrice }) };
}

/** One request of `api`: its path, method, query and (a POST's) body. */
interface ApiRequest {
  path: string;
  method: "GET" | "POST";
  query: Query;
  body: unknown;
}

/** The -f/-F fields, and --input's body (a POST's, alone). */
async function readInputs(
  ctx: RunContext,
  method: string,
  raw: ApiOptions,
): Promise<{ fields: Array<[string, FieldValue]>; rawBody: unknown }> {
  const read = (path: string) => readSource(ctx.io, path);
  const fields: Array<[string, FieldValue]> = [];
  for (const f of raw.field ?? []) fields.push(await parseField("--field", f, false, read));
  for (const f of raw.rawField ?? []) fields.push(await parseField("-F", f, true, read));
  if (raw.input === undefined) return { fields, rawBody: undefined };
  if (method !== "POST") throw new UsageError("--input sends a body: use it with -X POST");
  if (fields.length) throw new UsageError("--input and -f/-F cannot be combined");
  const text = await read(raw.input);
  try {
    return { fields, rawBody: parseJson(text) };
  } catch (error) {
    throw new UsageError(`--input: not valid JSON (${(error as Error).message})`);
  }
}

/** The flags that go with --paginate (or not with --include), checked before any request. */
function checkWalkFlags(method: string, raw: ApiOptions): void {
  if (raw.paginate && method !== "GET") throw new UsageError("--paginate walks the pages of a GET");
  if (raw.ndjson && !raw.paginate)
    throw new UsageError("--ndjson goes with --paginate (without it, the body is printed as sent)");
  if (raw.limit !== undefined && !raw.paginate) throw new UsageError("--limit goes with --paginate");
  if (raw.maxPages !== undefined && !raw.paginate) throw new UsageError("--max-pages goes with --paginate");
  if (raw.include && raw.silent) throw new UsageError("--include and --silent cannot be combined");
}

/** The query (the path's parameters, then a GET's fields) and a POST's body. */
function requestParts(
  target: { path: string; query: Array<[string, string]> },
  method: "GET" | "POST",
  fields: Array<[string, FieldValue]>,
  rawBody: unknown,
): Omit<ApiRequest, "method"> {
  // Parameters in the path and -f fields together; one named in both is an error, not a guess.
  for (const [name] of target.query)
    if (fields.some(([field]) => field === name))
      throw new UsageError(`api: "${name}" is given both in the path and with -f/-F; give it once`);
  const query: Query =
    method === "GET"
      ? [
          ...target.query,
          ...fields.map(([field, value]) => [field, value === null ? "null" : String(value)] as const),
        ]
      : target.query;
  const body = method === "POST" ? (rawBody ?? Object.fromEntries(fields)) : undefined;
  return { path: target.path, query, body };
}

/** --paginate: every page from the one asked for, printed as one JSON document (or NDJSON). */
async function walkPages(
  ctx: RunContext,
  client: Requester,
  { path, query }: ApiRequest,
  raw: ApiOptions,
  paying: boolean,
): Promise<void> {
  // A page asked for (-f page=3, ?page=3) is where the walk starts, not a value it drops.
  const asked = query.find(([key]) => key === "page")?.[1];
  const firstPage = asked === undefined ? 1 : Number(asked);
  if (!Number.isSafeInteger(firstPage) || firstPage < 1)
    throw new UsageError(`api --paginate: page ${JSON.stringify(asked)} is not a page number (1 or more)`);
  const writer = createWriter(raw.ndjson ? "ndjson" : "json", ctx.io, { columns: () => [] });
  // Paid, the pages are paid in page order: a cap stops the walk at the first page it cannot pay.
  const records = streamRecords(paying ? inPaymentOrder(client) : client, {
    endpoint: { path, kind: "any", pageSize: 0 },
    query: query.filter(([key]) => key !== "page"),
    firstPage,
    limit: raw.limit,
    maxPages: raw.maxPages,
    window: ctx.settings.concurrency * 2,
    speculate: paying ? 1 : ctx.settings.concurrency,
    onRepeat: (note) => ctx.io.warn(note),
  });
  // What the walk fetched before the page ceiling, or paid for, is printed (one valid document), then the run fails.
  const { writeStream } = await import("../data/partial.js");
  await writeStream(ctx, records, raw.silent ? { write: async () => {}, end: async () => {} } : writer);
}

/** One request, its body printed as sent; --include puts the status line and headers on stderr. */
async function sendOnce(ctx: RunContext, client: Requester, request: ApiRequest, raw: ApiOptions) {
  try {
    const { path, ...options } = request;
    const res = await client.request(path, { ...options, raw: true });
    if (raw.include) printHead(ctx, res.status, res.statusText, res.headers);
    if (!raw.silent)
      await ctx.io.outJson(res.text.endsWith("\n") || res.text === "" ? res.text : `${res.text}\n`);
  } catch (error) {
    if (raw.include && error instanceof CliError && error.response) {
      printHead(ctx, error.response.status, error.response.statusText, error.response.headers);
      for (const line of error.response.text.split("\n")) ctx.io.err(line);
    }
    throw error;
  }
}

function printHead(
  ctx: RunContext,
  status: number,
  reason: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): void {
  ctx.io.err(statusLine(status, reason));
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) ctx.io.err(`${name}: ${v}`);
  }
  ctx.io.err("");
}
