import type { ApiClient, Query } from "../api/client.js";
import type { PaymentSession } from "./session.js";

// --dry-run: the command's first request is made once, its 402 read, and the plan said; nothing
// else is requested and nothing is paid. What the response cache (--cache) already holds would not
// be requested, so it is not paid for either: the plan says so.

export interface FirstRequest {
  path: string;
  method?: "GET" | "POST";
  query?: Query;
  body?: unknown;
}

/** How many pages a dry run looks up in the cache (each a file read, no request). */
const MAX_CACHED_PAGES = 1000;

/** One line saying what the command would pay per request and in all. */
export async function planPayment(
  client: ApiClient,
  session: PaymentSession,
  first: FirstRequest,
): Promise<string> {
  const cached = cachedRequests(client, first);
  const single = !first.query?.some(([name]) => name === "page");
  if (cached && single)
    return `dry run: the request is answered from the response cache (${ageText(cached.ageMs)} old): nothing would be paid`;
  const res = await client.request(first.path, { ...first, label: "dry run", returnPaymentRequired: true });
  if (res.status !== 402)
    return `dry run: the server asked for no payment (HTTP ${res.status}); nothing would be paid`;
  if (!cached) return session.plan(res);
  const { requests, exact } = session.requestsNeeded;
  const count = Math.min(cached.count, requests ?? cached.count);
  const pages = count === 1 ? `page ${cached.from}` : `pages ${cached.from}–${cached.from + count - 1}`;
  const fromCache = `dry run: ${pages} answered from the response cache (${ageText(cached.ageMs)} old), nothing paid for ${count === 1 ? "it" : "them"}`;
  if (requests !== undefined && requests <= count && exact) return `${fromCache}; nothing would be paid`;
  const plan = await session.plan(res, count);
  return `${fromCache}; for the pages after them: ${plan.replace(/^dry run: /, "")}`;
}

/** The GET requests from the first on (page by page) that the response cache answers. */
function cachedRequests(
  client: ApiClient,
  first: FirstRequest,
): { from: number; count: number; ageMs: number } | undefined {
  if ((first.method ?? "GET") !== "GET") return undefined;
  const query = first.query ?? [];
  const at = query.findIndex(([name]) => name === "page");
  const from = at < 0 ? 1 : Number(query[at]![1]);
  let count = 0;
  let ageMs = 0;
  for (; count < MAX_CACHED_PAGES; count++) {
    const pageQuery: Query =
      at < 0 ? query : query.map((entry, i) => (i === at ? ["page", from + count] : entry));
    const age = client.cachedAgeMs(first.path, pageQuery);
    if (age === undefined) break;
    ageMs = Math.max(ageMs, age);
    if (at < 0) return { from, count: 1, ageMs };
  }
  return count > 0 ? { from, count, ageMs } : undefined;
}

function ageText(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min`;
}
