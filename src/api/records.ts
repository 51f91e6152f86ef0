import { MAX_SELECTOR_ITEMS } from "../contract/api.js";
import { type IdentityPart, identityOf } from "../contract/identity.js";
import { CliError } from "../errors.js";
import type { ApiClient, Query } from "./client.js";
import { CompactIdSet } from "./id-set.js";
import { type Endpoint, fetchPage, PageCeilingError, walkPages } from "./pager.js";
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
  /** The rows a record stands for, when not itself (staking's activities); filter and limit count rows. */
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
}

export interface RecordStreamResult {
  /** Selector items that no record matched. */
  missing: string[];
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

function recordId(record: unknown): string | undefined {
  return identityOf(record, "id");
}

/**
 * Streams the records a query names, as batches in final order: pages in page order; selector
 * lists over 30 items split into chunks that run concurrently and are merged in the order the
 * user gave. Records whose id was already seen are dropped (the live service repeats some).
 */
export async function* streamRecords(
  client: ApiClient,
  q: RecordQuery,
  result: RecordStreamResult = { missing: [] },
): AsyncGenerator<unknown[]> {
  const seen = new CompactIdSet();
  let remaining = q.limit ?? Number.POSITIVE_INFINITY;
  let delivered = 0;
  // `repeats`: the walk already knows which records repeat an id (walkPages), else `seen` tells.
  const keep = (records: unknown[], repeats?: number[]): unknown[] => {
    const out: unknown[] = [];
    let r = 0;
    for (let i = 0; i < records.length; i++) {
      const record = records[i];
      if (remaining <= 0) break;
      if (repeats) {
        if (repeats[r] === i) {
          r++;
          continue;
        }
      } else {
        const id = recordId(record);
        if (id !== undefined) {
          if (!seen.add(id)) continue;
        }
      }
      if (q.rows) {
        for (const row of q.rows(record)) {
          if (remaining <= 0) break;
          if (q.filter && !q.filter(row)) continue;
          out.push(row);
          remaining--;
        }
        continue;
      }
      if (q.filter && !q.filter(record)) continue;
      out.push(record);
      remaining--;
    }
    delivered += out.length;
    return out;
  };

  if (!q.selector) {
    const pages =
      q.page !== undefined || q.endpoint.paged === false
        ? oneShot(fetchPage(client, q.endpoint, q.query, q.page ?? 1, q.signal))
        : walkPages({
            fetch: (n) => fetchPage(client, q.endpoint, q.query, n, q.signal),
            pageSize: q.endpoint.pageSize,
            wanted: () => remaining,
            window: q.window,
            speculate: q.speculate,
            maxPages: q.maxPages,
            onRepeat: q.onRepeat,
            prefetch: q.prefetch,
            firstPage: q.firstPage,
          });
    let pagesDone = 0;
    let pageCount: number | undefined;
    try {
      for await (const page of pages) {
        pagesDone = page.number;
        pageCount ??= page.pagination?.pageCount;
        const batch = keep(page.records, page.repeats);
        q.onProgress?.({ done: page.number, total: pageCount, unit: "page", records: delivered });
        if (batch.length) yield batch;
        if (remaining <= 0) return;
      }
    } catch (error) {
      if (
        error instanceof CliError &&
        !(error instanceof PageCeilingError) &&
        pagesDone > 0 &&
        q.page === undefined
      ) {
        const of = pageCount ? ` of ${pageCount}` : "";
        error.message += ` [page ${pagesDone + 1}${of} failed: records from page ${pagesDone + 1} on are missing]`;
      }
      throw error;
    }
    return;
  }

  const selector = q.selector;
  const chunks = chunk(selector.items);
  const matched = new Set<string>();
  // A chunk's walk that reached the page ceiling: its records are delivered, then the run stops.
  const ceilings = new Map<string[], PageCeilingError>();
  const fetchChunk = async (items: string[]): Promise<unknown[]> => {
    const query: Query = [...q.query, [selector.param, items]];
    if (q.page !== undefined) return (await fetchPage(client, q.endpoint, query, q.page, q.signal)).records;
    // One request answers the whole chunk, in the service's order: put back in the user's.
    if (q.endpoint.paged === false)
      return orderBySelector(
        (await fetchPage(client, q.endpoint, query, 1, q.signal)).records,
        items,
        selector.kind,
      );
    const records: unknown[] = [];
    try {
      for await (const page of walkPages({
        fetch: (n) => fetchPage(client, q.endpoint, query, n, q.signal),
        pageSize: q.endpoint.pageSize,
        wanted: () => Number.POSITIVE_INFINITY,
        window: q.window,
        speculate: q.speculate,
        maxPages: q.maxPages,
        onRepeat: q.onRepeat,
      })) {
        records.push(...page.records);
      }
    } catch (error) {
      if (!(error instanceof PageCeilingError)) throw error;
      ceilings.set(items, error);
    }
    return orderBySelector(records, items, selector.kind);
  };

  let done = 0;
  const results = inOrder(
    (i) => fetchChunk(chunks[i]!),
    0,
    chunks.length - 1,
    () => (remaining > 0 ? q.window : 0),
  );
  for (;;) {
    let records: unknown[];
    try {
      const next = await results.next();
      if (next.done) break;
      records = next.value;
    } catch (error) {
      if (error instanceof CliError && chunks.length > 1) {
        const missing = selector.items.slice(done * MAX_SELECTOR_ITEMS);
        const names = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", …" : "");
        error.message += ` [request for items ${done * MAX_SELECTOR_ITEMS + 1}-${Math.min(selector.items.length, (done + 1) * MAX_SELECTOR_ITEMS)} of ${selector.items.length} failed: ${missing.length} items are missing: ${names}]`;
      }
      throw error;
    }
    done++;
    for (const record of records) {
      const key = selectorKey(record, selector.kind);
      if (key !== undefined) matched.add(key);
    }
    const batch = keep(records);
    q.onProgress?.({ done, total: chunks.length, unit: "request", records: delivered });
    if (batch.length) yield batch;
    if (remaining <= 0) break;
    const ceiling = ceilings.get(chunks[done - 1]!);
    if (ceiling) {
      const from = done * MAX_SELECTOR_ITEMS + 1;
      if (from <= selector.items.length)
        ceiling.message += ` [items ${from}-${selector.items.length} of ${selector.items.length} were not requested]`;
      throw ceiling;
    }
  }
  if (remaining > 0) result.missing = selector.items.filter((item) => !matched.has(item.toLowerCase()));
}

async function* oneShot<T>(value: Promise<T>): AsyncGenerator<T> {
  yield await value;
}

/** Orders records by the position of the item that names them; unmatched records keep their place at the end. */
/** The request a query starts with: its first page, or the first chunk of its list. */
export function firstRequest(q: RecordQuery): { path: string; query: Query } {
  const query: Query = q.selector
    ? [...q.query, [q.selector.param, chunk(q.selector.items)[0] ?? []]]
    : q.query;
  if (q.endpoint.paged === false) return { path: q.endpoint.path, query };
  return { path: q.endpoint.path, query: [...query, ["page", q.page ?? 1]] };
}

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
