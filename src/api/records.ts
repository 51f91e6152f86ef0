import { CliError, UsageError } from "../errors.js";
import type { Query } from "./client.js";
import { Delivery } from "./delivery.js";
import { firstUnitRequest, pagesOf, walkUnits } from "./list-walk.js";
import { type Endpoint, fetchPage, PageCeilingError, type Requester } from "./pager.js";

export type { SelectorKind } from "../contract/endpoints.js";

import type { SelectorKind } from "../contract/endpoints.js";

export interface Selector {
  /** The query parameter, e.g. token_tickers or agent_tickers. */
  param: string;
  kind: SelectorKind;
  items: string[];
  /** Items one request carries (default MAX_SELECTOR_ITEMS); a longer list is split over requests. */
  perRequest?: number;
}

/** A parameter asked value by value, each value of it crossed with each request of the list. */
export interface FanOutQuery {
  /** The query parameter, and the field each record is stamped with. */
  param: string;
  /** The values asked, in order, each with the path that serves it. */
  values: ReadonlyArray<{ value: string; path: string }>;
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
  /** With a selector: a parameter asked value by value (list-walk.ts). */
  fanOut?: FanOutQuery;
  /** With a selector: the request of the list a walk starts at (an MCP continuation); default 0. */
  firstUnit?: number;
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
  /** Selector items that no record matched (under any fan-out value). */
  missing: string[];
  /** With a fan-out: items matched under some values, and the values under which none was. */
  missingOn?: Array<{ item: string; values: string[] }>;
  /** The selector keys records matched so far (lower case); kept across walks that share it. */
  matched?: Set<string>;
}

/**
 * Streams the records a query names, as batches in final order: pages in page order; selector
 * lists split into requests (30 items, or what the endpoint takes; once per fan-out value) that
 * run concurrently and are merged in the order the user gave. Records whose id was already seen
 * are dropped (the live service repeats some).
 */
export function streamRecords(
  client: Requester,
  recordQuery: RecordQuery,
  result: RecordStreamResult = { missing: [] },
  /** What was delivered before (a walk resumed after a failed page keeps its ids and count). */
  delivery: Delivery = new Delivery(recordQuery),
): AsyncGenerator<unknown[]> {
  return recordQuery.selector
    ? walkUnits(client, recordQuery, recordQuery.selector, delivery, result)
    : walkQueryPages(client, recordQuery, delivery);
}

/** Page mode: the query's pages in order, or the one page asked for. */
async function* walkQueryPages(
  client: Requester,
  recordQuery: RecordQuery,
  delivery: Delivery,
): AsyncGenerator<unknown[]> {
  const pages =
    recordQuery.page !== undefined || recordQuery.endpoint.paged === false
      ? oneShot(
          fetchPage(
            client,
            recordQuery.endpoint,
            recordQuery.query,
            recordQuery.page ?? 1,
            recordQuery.signal,
          ),
        )
      : pagesOf(client, recordQuery, recordQuery.query, {
          wanted: () => delivery.remaining,
          prefetch: recordQuery.prefetch,
          firstPage: recordQuery.firstPage,
          seen: delivery.seen,
        });
  let pagesDone = 0;
  let pageCount: number | undefined;
  try {
    for await (const page of pages) {
      pagesDone = page.number;
      pageCount ??= page.pagination?.pageCount;
      const batch = delivery.keep(page.records, page.repeats);
      const last =
        recordQuery.page !== undefined || recordQuery.endpoint.paged === false || page.last === true;
      recordQuery.onProgress?.({
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
    if (recordQuery.page === undefined) notePagesMissing(error, pagesDone, pageCount);
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

async function* oneShot<T>(value: Promise<T>): AsyncGenerator<T> {
  yield await value;
}

/** The request a query starts with: its first page, or the first request of its list. */
export function firstRequest(recordQuery: RecordQuery): { path: string; query: Query } {
  if (recordQuery.selector) {
    const first = firstUnitRequest(recordQuery, recordQuery.selector);
    return recordQuery.endpoint.paged === false
      ? first
      : { ...first, query: [...first.query, ["page", recordQuery.page ?? 1]] };
  }
  if (recordQuery.endpoint.paged === false)
    return { path: recordQuery.endpoint.path, query: recordQuery.query };
  return { path: recordQuery.endpoint.path, query: [...recordQuery.query, ["page", recordQuery.page ?? 1]] };
}
