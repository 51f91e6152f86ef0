import { MAX_SELECTOR_ITEMS } from "../contract/api.js";
import { type IdentityPart, identityOf } from "../contract/identity.js";
import { CliError, UsageError } from "../errors.js";
import type { Query } from "./client.js";
import { Delivery } from "./delivery.js";
import {
  type Endpoint,
  fetchPage,
  type Page,
  PageCeilingError,
  type PageWalk,
  type Requester,
  walkPages,
} from "./pager.js";
import { inOrder } from "./window.js";

export type { SelectorKind } from "../contract/endpoints.js";

import type { SelectorKind } from "../contract/endpoints.js";

export interface Selector {
  /** The query parameter, e.g. token_tickers or agent_tickers. */
  param: string;
  kind: SelectorKind;
  items: string[];
}

export interface RecordQuery {
  endpoint: Endpoint;
  /** Filters sent with every request (chain, ecosystem). */
  query: Query;
  selector?: Selector;
  limit?: number;
  /** Keeps only the records it accepts, before the limit counts them (--where). */
  filter?: (record: unknown) => boolean;
  /** The rows a record stands for, when not itself (a list it holds, a row each); filter and limit count rows. */
  rows?: (record: unknown) => unknown[];
  /** Fetch exactly this page. */
  page?: number;
  /** Requests scheduled ahead of the one being consumed. */
  window: number;
  /** Pages requested ahead when the page count is unknown (see walkPages); default 1. */
  speculate?: number;
  /** The most pages one walk requests (--max-pages); default DEFAULT_MAX_PAGES. */
  maxPages?: number;
  /** Told (a line for stderr) when a page repeated what came before though the page count promised more. */
  onRepeat?: (note: string) => void;
  /** Request the following pages while page 1 is consumed (see PageWalk.prefetch). */
  prefetch?: boolean;
  /** The page a walk starts at (tokenintel api --paginate with page=N); default 1. */
  firstPage?: number;
  /** Ends the walk: no request is sent after it (an MCP call cancelled by its client). */
  signal?: AbortSignal;
  /** Told after each page (or chunk of a long list) has been delivered. */
  onProgress?: (progress: Progress) => void;
}

export interface Progress {
  done: number;
  /** Known once page 1 carried meta.pagination, or from the number of chunks. */
  total: number | undefined;
  unit: "page" | "request";
  records: number;
  /** Nothing follows: the walk ends without another request (the page count, a short page, the list's end). */
  last: boolean;
}

export interface RecordStreamResult {
  /** Selector items that no record matched. */
  missing: string[];
  /** The selector keys records matched so far (lower case); kept across walks that share it. */
  matched?: Set<string>;
}

/** Splits a list into requests of at most `size` items, in order. */
export function chunk<T>(items: readonly T[], size = MAX_SELECTOR_ITEMS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const PART_FOR: Record<SelectorKind, IdentityPart> = { id: "id", ticker: "symbol", address: "address" };

/** The value of a record that a selector item names, for matching answers to what was asked. */
export function selectorKey(record: unknown, kind: SelectorKind): string | undefined {
  return identityOf(record, PART_FOR[kind])?.toLowerCase();
}

/**
 * Streams the records a query names, as batches in final order: pages in page order; selector
 * lists over 30 items split into chunks that run concurrently and are merged in the order the
 * user gave. Records whose id was already seen are dropped (the live service repeats some).
 */
export function streamRecords(
  client: Requester,
  q: RecordQuery,
  result: RecordStreamResult = { missing: [] },
  /** What was delivered before (a walk resumed after a failed page keeps its ids and count). */
  delivery: Delivery = new Delivery(q),
): AsyncGenerator<unknown[]> {
  return q.selector
    ? walkChunks(client, q, q.selector, delivery, result)
    : walkQueryPages(client, q, delivery);
}

/** Page mode: the query's pages in order, or the one page asked for. */
async function* walkQueryPages(
  client: Requester,
  q: RecordQuery,
  delivery: Delivery,
): AsyncGenerator<unknown[]> {
  const pages =
    q.page !== undefined || q.endpoint.paged === false
      ? oneShot(fetchPage(client, q.endpoint, q.query, q.page ?? 1, q.signal))
      : pagesOf(client, q, q.query, {
          wanted: () => delivery.remaining,
          prefetch: q.prefetch,
          firstPage: q.firstPage,
        });
  let pagesDone = 0;
  let pageCount: number | undefined;
  try {
    for await (const page of pages) {
      pagesDone = page.number;
      pageCount ??= page.pagination?.pageCount;
      const batch = delivery.keep(page.records, page.repeats);
      const last = q.page !== undefined || q.endpoint.paged === false || page.last === true;
      q.onProgress?.({
        done: page.number,
        total: pageCount,
        unit: "page",
        records: delivery.delivered,
        last,
      });
      if (batch.length) yield batch;
      if (delivery.full) return;
    }
  } catch (error) {
    if (q.page === undefined) notePagesMissing(error, pagesDone, pageCount);
    throw error;
  }
}

/**
 * A walk that failed after page 1 says from which page on its records are missing; a usage error
 * (a check of the user's flags against what the pages carried) is no failure of a page.
 */
function notePagesMissing(error: unknown, pagesDone: number, pageCount: number | undefined): void {
  if (!(error instanceof CliError) || error instanceof PageCeilingError || error instanceof UsageError)
    return;
  if (pagesDone === 0) return;
  const of = pageCount ? ` of ${pageCount}` : "";
  error.message += ` [page ${pagesDone + 1}${of} failed: records from page ${pagesDone + 1} on are missing]`;
}

/** walkPages over one query, with the query's window, speculation, page ceiling and repeat note. */
function pagesOf(
  client: Requester,
  q: RecordQuery,
  query: Query,
  walk: Pick<PageWalk, "wanted" | "prefetch" | "firstPage">,
): AsyncGenerator<Page> {
  return walkPages({
    fetch: (n) => fetchPage(client, q.endpoint, query, n, q.signal),
    pageSize: q.endpoint.pageSize,
    window: q.window,
    speculate: q.speculate,
    maxPages: q.maxPages,
    onRepeat: q.onRepeat,
    ...walk,
  });
}

/**
 * Chunk mode: a selector list in requests of at most 30 items, scheduled through the window and
 * delivered in the user's order; the items no record matched end in `result.missing`.
 */
async function* walkChunks(
  client: Requester,
  q: RecordQuery,
  selector: Selector,
  delivery: Delivery,
  result: RecordStreamResult,
): AsyncGenerator<unknown[]> {
  const chunks = chunk(selector.items);
  result.matched ??= new Set<string>();
  const matched = result.matched;
  // A chunk's walk that reached the page ceiling: its records are delivered, then the run stops.
  const ceilings = new Map<string[], PageCeilingError>();
  const results = inOrder(
    (i) => fetchChunk(client, q, selector, chunks[i]!, (ceiling) => ceilings.set(chunks[i]!, ceiling)),
    0,
    chunks.length - 1,
    () => (delivery.full ? 0 : q.window),
  );
  for (let done = 1; ; done++) {
    const next = await nextChunk(results, selector, done - 1, chunks.length);
    if (next.done) break;
    for (const record of next.value) {
      const key = selectorKey(record, selector.kind);
      if (key !== undefined) matched.add(key);
    }
    const batch = delivery.keep(next.value);
    q.onProgress?.({
      done,
      total: chunks.length,
      unit: "request",
      records: delivery.delivered,
      last: done === chunks.length,
    });
    if (batch.length) yield batch;
    if (delivery.full) return;
    const ceiling = ceilings.get(chunks[done - 1]!);
    if (ceiling) throw noteUnrequested(ceiling, done, selector.items.length);
  }
  if (!delivery.full) result.missing = selector.items.filter((item) => !matched.has(item.toLowerCase()));
}

/** The next chunk's records; a failure in a list of several chunks names the items left unread. */
async function nextChunk(
  results: AsyncGenerator<unknown[]>,
  selector: Selector,
  done: number,
  chunkCount: number,
): Promise<IteratorResult<unknown[]>> {
  try {
    return await results.next();
  } catch (error) {
    if (error instanceof CliError && chunkCount > 1) {
      const total = selector.items.length;
      const missing = selector.items.slice(done * MAX_SELECTOR_ITEMS);
      const names = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", …" : "");
      error.message += ` [request for items ${done * MAX_SELECTOR_ITEMS + 1}-${Math.min(total, (done + 1) * MAX_SELECTOR_ITEMS)} of ${total} failed: ${missing.length} items are missing: ${names}]`;
    }
    throw error;
  }
}

/** The page ceiling one chunk reached, saying which items after it were not requested. */
function noteUnrequested(ceiling: PageCeilingError, done: number, total: number): PageCeilingError {
  const from = done * MAX_SELECTOR_ITEMS + 1;
  if (from <= total) ceiling.message += ` [items ${from}-${total} of ${total} were not requested]`;
  return ceiling;
}

/** One chunk's records in the user's order: its one page, or every page up to the page ceiling. */
async function fetchChunk(
  client: Requester,
  q: RecordQuery,
  selector: Selector,
  items: string[],
  onCeiling: (ceiling: PageCeilingError) => void,
): Promise<unknown[]> {
  const query: Query = [...q.query, [selector.param, items]];
  // The service answers in its own order: --page's one page, an unpaged endpoint's one answer or
  // every page, put back in the user's.
  const records =
    q.page !== undefined || q.endpoint.paged === false
      ? (await fetchPage(client, q.endpoint, query, q.page ?? 1, q.signal)).records
      : await everyPage(client, q, query, onCeiling);
  return orderBySelector(records, items, selector.kind);
}

/** The records of every page of a query; a walk that reaches the page ceiling keeps what it read. */
async function everyPage(
  client: Requester,
  q: RecordQuery,
  query: Query,
  onCeiling: (ceiling: PageCeilingError) => void,
): Promise<unknown[]> {
  const records: unknown[] = [];
  try {
    for await (const page of pagesOf(client, q, query, { wanted: () => Number.POSITIVE_INFINITY })) {
      records.push(...page.records);
    }
  } catch (error) {
    if (!(error instanceof PageCeilingError)) throw error;
    onCeiling(error);
  }
  return records;
}

async function* oneShot<T>(value: Promise<T>): AsyncGenerator<T> {
  yield await value;
}

/** The request a query starts with: its first page, or the first chunk of its list. */
export function firstRequest(q: RecordQuery): { path: string; query: Query } {
  const query: Query = q.selector
    ? [...q.query, [q.selector.param, chunk(q.selector.items)[0] ?? []]]
    : q.query;
  if (q.endpoint.paged === false) return { path: q.endpoint.path, query };
  return { path: q.endpoint.path, query: [...query, ["page", q.page ?? 1]] };
}

/** Orders records by the position of the item that names them; unmatched records keep their place at the end. */
export function orderBySelector(records: unknown[], items: readonly string[], kind: SelectorKind): unknown[] {
  const position = new Map<string, number>();
  items.forEach((item, i) => {
    const key = item.toLowerCase();
    if (!position.has(key)) position.set(key, i);
  });
  return records
    .map((record, i) => ({ record, i, pos: position.get(selectorKey(record, kind) ?? "") ?? items.length }))
    .sort((a, b) => a.pos - b.pos || a.i - b.i)
    .map((x) => x.record);
}
