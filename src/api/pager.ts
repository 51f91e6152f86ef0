import { ApiError } from "../errors.js";
import { type ApiClient, type Query, serverMessage } from "./client.js";
import { describeIssue, envelope, type Pagination, type RecordKind, recordSchemaFor } from "./schemas.js";

export interface Page {
  number: number;
  records: unknown[];
  pagination: Pagination | undefined;
}

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
}

/** Fetches one page and checks it is the API's shape: `{success, data: [...], meta?}` or a bare array. */
export async function fetchPage(
  client: ApiClient,
  endpoint: Endpoint,
  query: Query,
  page: number,
): Promise<Page> {
  const res = await client.request(endpoint.path, {
    query: [...query, ["page", page]],
    label: `page ${page}`,
  });
  return readPage(res.body, endpoint.kind, page, res.status);
}

export function readPage(body: unknown, kind: RecordKind, page: number, status = 200): Page {
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
  if (!Array.isArray(env.data))
    throw new ApiError(`HTTP ${status}: unexpected response (data is not a list)`, { status });
  return {
    number: page,
    records: checkRecords(env.data, kind, status),
    pagination: env.meta?.pagination ?? undefined,
  };
}

function checkRecords(records: unknown[], kind: RecordKind, status: number): unknown[] {
  const schema = recordSchemaFor(kind);
  for (let i = 0; i < records.length; i++) {
    const result = schema.safeParse(records[i]);
    if (!result.success) {
      throw new ApiError(
        `HTTP ${status}: unexpected response (${describeIssue(result.error, `data[${i}]`)})`,
        { status },
      );
    }
  }
  return records;
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
}

/**
 * Yields pages in order. Page 1 tells the page count (meta.pagination); the rest are then
 * requested concurrently within a sliding window and yielded in order, so memory stays bounded.
 * Without a page count, pages are walked until a short or empty page, `speculate` at a time.
 */
export async function* walkPages(walk: PageWalk): AsyncGenerator<Page> {
  const first = await walk.fetch(1);
  yield first;
  const pageSize = first.pagination?.pageSize ?? (walk.pageSize || first.records.length);
  const pageCount = first.pagination?.pageCount;
  const isLast = (page: Page) => page.records.length === 0 || page.records.length < pageSize;
  if (pageCount === undefined && isLast(first)) return;
  const window = Math.max(1, pageCount === undefined ? (walk.speculate ?? 1) : walk.window);
  const pending: Array<Promise<Page>> = [];
  let next = 2;
  const fill = () => {
    while (
      (pageCount === undefined || next <= pageCount) &&
      pending.length < window &&
      pending.length * pageSize < walk.wanted()
    ) {
      const p = walk.fetch(next++);
      p.catch(() => {}); // observed when its turn comes; never an unhandled rejection
      pending.push(p);
    }
  };
  fill();
  while (pending.length > 0) {
    const page = await pending.shift()!;
    yield page;
    if (pageCount === undefined && isLast(page)) return; // what was requested past the end is dropped
    fill();
  }
}
