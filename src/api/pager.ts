import { identityOf } from "../contract/identity.js";
import { DEFAULT_MAX_PAGES } from "../contract/limits.js";
import { ApiError, CliError } from "../errors.js";
import { stringifyJson } from "../json/exact.js";
import type { ApiClient, Query } from "./client.js";
import { CompactIdSet } from "./id-set.js";
import { passesClientCheck } from "./record-check.js";
import { describeIssue, envelope, type Pagination, type RecordKind, recordSchemaFor } from "./schemas.js";
import { serverMessage } from "./server-message.js";
import { inOrder } from "./window.js";

export interface Page {
  number: number;
  records: unknown[];
  pagination: Pagination | undefined;
  /**
   * Set by walkPages: the indexes of the records whose id an earlier record of the walk already
   * had (so a consumer can drop repeats without a set of ids of its own).
   */
  repeats?: number[];
  /** Set by walkPages: no page follows this one (the walk ends without another request). */
  last?: boolean;
}

/** What of the client a walk uses: one request at a time (an MCP walk hands in its own gate). */
export type Requester = Pick<ApiClient, "request">;

export interface Endpoint {
  path: string;
  kind: RecordKind;
  /**
   * The page size the spec gives, used when the answer carries no meta.pagination; 0 when not known
   * (then the first page's length stands for it).
   */
  pageSize: number;
  /** Whether the endpoint needs the key (the directory can do without: x402). */
  keyOptional?: boolean;
  /** false: the service answers everything in one request and takes no `page` (default true). */
  paged?: boolean;
  /** The answer's `data` is one record, not a list: read as a list of one (null as none). */
  oneRecord?: boolean;
}

/** Fetches one page and checks it is the API's shape: `{success, data: [...], meta?}` or a bare array. */
export async function fetchPage(
  client: Requester,
  endpoint: Endpoint,
  query: Query,
  page: number,
  signal?: AbortSignal,
): Promise<Page> {
  const unpaged = endpoint.paged === false;
  const res = await client.request(endpoint.path, {
    query: unpaged ? query : [...query, ["page", page]],
    label: unpaged ? "request" : `page ${page}`,
    signal,
  });
  return readPage(res.body, endpoint.kind, page, res.status, endpoint.oneRecord);
}

/**
 * A page's records: `{success, data: [...], meta?}` or a bare array; with `oneRecord`, `data` is
 * one record (an object), or a list as any page's.
 */
export function readPage(
  body: unknown,
  kind: RecordKind,
  page: number,
  status = 200,
  oneRecord = false,
): Page {
  if (Array.isArray(body))
    return { number: page, records: checkRecords(body, kind, status), pagination: undefined };
  if (body && typeof body === "object" && (body as { success?: unknown }).success === false) {
    const detail = serverMessage(body);
    throw new ApiError(`HTTP ${status}: the server reported a failure${detail ? `: ${detail}` : ""}`, {
      status,
    });
  }
  const parsed = envelope.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(`HTTP ${status}: unexpected response (${describeIssue(parsed.error)})`, { status });
  }
  const env = parsed.data;
  if (env.data === null || env.data === undefined)
    return { number: page, records: [], pagination: env.meta?.pagination };
  if (oneRecord && !Array.isArray(env.data))
    return { number: page, records: checkRecords([env.data], kind, status), pagination: undefined };
  if (!Array.isArray(env.data))
    throw new ApiError(`HTTP ${status}: unexpected response (data is not a list)`, { status });
  return {
    number: page,
    records: checkRecords(env.data, kind, status),
    pagination: env.meta?.pagination ?? undefined,
  };
}

function checkRecords(records: unknown[], kind: RecordKind, status: number): unknown[] {
  for (let i = 0; i < records.length; i++) {
    // The hand-written check passes the records of a sound page; the schema judges the rest.
    if (passesClientCheck(records[i], kind)) continue;
    const result = recordSchemaFor(kind).safeParse(records[i]);
    if (!result.success) {
      throw new ApiError(
        `HTTP ${status}: unexpected response (${describeIssue(result.error, `data[${i}]`)})`,
        { status },
      );
    }
  }
  return records;
}

/** A walk reached its page ceiling while the server still had pages. What was walked stands. */
export class PageCeilingError extends CliError {
  constructor(
    readonly pagesWalked: number,
    readonly pageCount: number | undefined,
  ) {
    const of = pageCount === undefined ? "" : ` of ${pageCount}`;
    super(
      `stopped at page ${pagesWalked}${of}, the page ceiling; the server has more pages, not included here (raise the ceiling with --max-pages, e.g. --max-pages ${pageCount ?? pagesWalked * 2})`,
    );
  }
}

export interface PageWalk {
  fetch: (page: number) => Promise<Page>;
  pageSize: number;
  /** How many more records the consumer wants (Infinity without a limit). */
  wanted: () => number;
  /** How many page requests may be scheduled ahead of the one being consumed. */
  window: number;
  /**
   * Without a page count: how many pages to request before knowing whether they exist (so at
   * most speculate - 1 requests are wasted past the end). 1 when each request costs money.
   */
  speculate?: number;
  /**
   * The most pages to yield (default DEFAULT_MAX_PAGES); a walk with more ends in PageCeilingError.
   * Without a page count, one page more is requested to learn whether the listing ended there.
   */
  maxPages?: number;
  /** Told (a line for stderr) when a page brought nothing new before the server's page count. */
  onRepeat?: (note: string) => void;
  /** The page the walk starts at (default 1); maxPages counts from it. */
  firstPage?: number;
  /**
   * The ids read before this walk began: a walk resumed at a later page knows them, so what those
   * pages gave is a repeat on this one too (default: none).
   */
  seen?: CompactIdSet;
  /**
   * Request the following pages as soon as page 1 is read, before it is consumed (off when each
   * request costs money: a consumer that fails on page 1 would throw the next pages away).
   */
  prefetch?: boolean;
}

/** Recognises a page that brings nothing new: every id already seen, or the same records again. */
class Novelty {
  private readonly pages = new Set<string>();

  constructor(private readonly ids: CompactIdSet) {}

  /** Records the page; false when it adds nothing to what came before. */
  add(page: Page): boolean {
    let allSeen = true;
    let withoutId = false;
    const repeats: number[] = [];
    const records = page.records;
    for (let i = 0; i < records.length; i++) {
      const id = identityOf(records[i], "id");
      if (id === undefined) {
        withoutId = true;
        continue;
      }
      if (this.ids.add(id)) allSeen = false;
      else repeats.push(i);
    }
    page.repeats = repeats;
    if (!withoutId) return !allSeen;
    // Records without ids: a page identical to one already walked (a server ignoring `page`).
    const digest = process
      .getBuiltinModule("node:crypto")
      .createHash("sha256")
      .update(stringifyJson(page.records))
      .digest("base64");
    if (this.pages.has(digest)) return false;
    this.pages.add(digest);
    return true;
  }
}

function positiveInt(value: number | undefined): number | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * Yields pages in order. Page 1 tells the page count (meta.pagination); the rest are then
 * requested concurrently within a sliding window and yielded in order, so memory stays bounded.
 * Without a page count, pages are walked until a short or empty page, `speculate` at a time.
 * Every walk ends: at an empty page, at a page that brings nothing new (which is not yielded),
 * and at `maxPages`. With a page count, nothing past `maxPages` is requested, not even
 * speculatively; without one, only page `maxPages + 1`, to tell a listing that ends exactly there
 * (that page is empty, short or repeats: the walk is complete, and a short page is yielded) from
 * one that goes on (a full page of new records: PageCeilingError, that page not yielded).
 */
export async function* walkPages(walk: PageWalk): AsyncGenerator<Page> {
  const maxPages = walk.maxPages ?? DEFAULT_MAX_PAGES;
  const start = walk.firstPage ?? 1;
  /** The last page the ceiling allows. */
  const end = start - 1 + maxPages;
  const novelty = new Novelty(walk.seen ?? new CompactIdSet());
  const first = await walk.fetch(start);
  novelty.add(first);
  // A page size of 0, negative or not a whole number says nothing: the spec's, or page 1's, stands.
  const pageSize =
    positiveInt(first.pagination?.pageSize) ?? (positiveInt(walk.pageSize) || first.records.length);
  const pageCount = first.pagination?.pageCount;
  const hasMore = (page: Page) =>
    page.records.length > 0 &&
    (pageCount === undefined ? page.records.length >= pageSize : page.number < pageCount);
  if (!hasMore(first)) {
    first.last = true;
    yield first;
    return;
  }
  if (pageCount !== undefined && maxPages <= 1) {
    yield first;
    throw new PageCeilingError(start, pageCount);
  }
  const window = Math.max(1, pageCount === undefined ? (walk.speculate ?? 1) : walk.window);
  const last = pageCount === undefined ? end + 1 : Math.min(pageCount, end);
  // Never more pages in flight than the records still wanted can fill (page 1's, while it is not
  // consumed yet, count as delivered: a prefetch never asks for more than the walk will need).
  let unconsumed = first.records.length;
  const width = () => Math.min(window, Math.ceil((walk.wanted() - unconsumed) / pageSize));
  const rest = inOrder(walk.fetch, start + 1, last, width);
  if (walk.prefetch) rest.fill();
  yield first;
  unconsumed = 0;
  for await (const page of rest) {
    if (page.records.length > 0 && !novelty.add(page)) {
      // The server repeats itself (or ignores `page`): nothing further can be new.
      if (pageCount !== undefined && page.number < pageCount) {
        walk.onRepeat?.(
          `page ${page.number} of ${pageCount} brought nothing new (every record was already seen); stopped there`,
        );
      }
      return;
    }
    // A full page of new records past the ceiling: the listing goes on.
    if (page.number > end && hasMore(page)) throw new PageCeilingError(end, pageCount);
    page.last = !hasMore(page);
    yield page;
    if (!hasMore(page)) return; // what was requested past the end is dropped
    if (pageCount !== undefined && page.number >= end) throw new PageCeilingError(page.number, pageCount);
  }
}
