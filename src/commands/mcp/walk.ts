import type { ApiClient } from "../../api/client.js";
import { fetchPage, type Page } from "../../api/pager.js";
import { chunk, orderBySelector, type RecordQuery, selectorKey } from "../../api/records.js";
import { identityOf } from "../../contract/identity.js";
import { CliError, InterruptedError, PaymentError, UsageError } from "../../errors.js";
import type { SortSpec } from "../../query/records.js";

// A data tool's walk: page by page (or list chunk by chunk), one request at a time, stopping the
// moment the answer is full. "More exist" comes from the page count the service sends (or a full
// page when it sends none), never from a page requested only to find out: with --pay each request
// is paid for. Where an answer stops, a cursor says where the next one starts (the page and the
// records of it already given), so that, passed back, it resumes with no gap and no repeat.

/** The most requests one tool call makes: a walk past it stops with a cursor (or, sorted, refuses). */
export const MAX_TOOL_REQUESTS = 50;

/** Where a walk starts: the unit (page number, or list chunk from 1) and the records of it already given. */
export interface Position {
  unit: number;
  skip: number;
  /** A sorted walk: records of the sorted whole already given. */
  offset?: number;
}

export interface WalkProgress {
  requests: number;
  /** Requests the walk is known to need, when the page count (or the list) tells. */
  total: number | undefined;
}

export interface ToolWalk {
  records: unknown[];
  /** The walk stopped before the listing's end: `next` continues it. */
  more: boolean;
  next: Position | undefined;
  requests: number;
  /** Pages of the listing (or chunks of the list), when known. */
  units: number | undefined;
  /** Items of tickers/addresses/ids that matched no record, among those requested. */
  missing: string[];
  notes: string[];
}

export interface WalkOptions {
  client: ApiClient;
  query: RecordQuery;
  sort: SortSpec | undefined;
  limit: number;
  from: Position;
  signal: AbortSignal;
  onProgress?: (p: WalkProgress) => void;
  /** Called once a page's records were read, before the next request (a check that throws stops the walk). */
  afterPage?: () => void;
  /**
   * Asked before a sorted walk reads past its first request, with the number still to make: a
   * reason refuses the walk (a paid walk the server's --max-spend cannot cover).
   */
  mayRead?: (more: number) => string | undefined;
}

const recordId = (record: unknown) => identityOf(record, "id");

/**
 * Reads one unit: a page of the listing, or the pages of one chunk of the list (within `budget`
 * requests), in the list's order. `requests`: how many it made; `cut`: pages of the chunk left unread.
 */
async function readUnit(
  o: WalkOptions,
  unit: number,
  items: string[][],
  budget: number,
): Promise<{ page: Page; requests: number; cut: number }> {
  if (o.signal.aborted) throw new InterruptedError();
  const { client, query } = o;
  const selector = query.selector;
  if (!selector)
    return {
      page: await fetchPage(client, query.endpoint, query.query, unit, o.signal),
      requests: 1,
      cut: 0,
    };
  const q = [...query.query, [selector.param, items[unit - 1]!]] as RecordQuery["query"];
  const first = await fetchPage(client, query.endpoint, q, 1, o.signal);
  const records = [...first.records];
  const count = first.pagination?.pageCount ?? 1;
  const pages = Math.max(1, Math.min(count, budget));
  for (let n = 2; n <= pages; n++) {
    if (o.signal.aborted) throw new InterruptedError();
    records.push(...(await fetchPage(client, query.endpoint, q, n, o.signal)).records);
  }
  const ordered = orderBySelector(records, items[unit - 1]!, selector.kind);
  return {
    page: { number: unit, records: ordered, pagination: undefined },
    requests: pages,
    cut: count - pages,
  };
}

/** Whether the listing goes on past `page`: the page count says, else a full page may have a successor. */
function hasMore(o: WalkOptions, page: Page, units: number | undefined): boolean {
  if (units !== undefined) return page.number < units;
  return page.records.length > 0 && page.records.length >= o.query.endpoint.pageSize;
}

export async function walkTool(o: WalkOptions): Promise<ToolWalk> {
  const selector = o.query.selector;
  const items = selector ? chunk(selector.items) : [];
  const seen = new Set<string>();
  const matched = new Set<string>();
  const out: unknown[] = [];
  const notes: string[] = [];
  const filter = o.query.filter;
  const sorted = o.sort !== undefined;
  let units: number | undefined = selector ? items.length : undefined;
  let requests = 0;
  let unit = sorted ? 1 : o.from.unit;
  let skip = sorted ? 0 : o.from.skip;
  const done = (more: boolean, next: Position | undefined): ToolWalk => ({
    records: out,
    more,
    next: more ? next : undefined,
    requests,
    units,
    missing: selector && !more ? selector.items.filter((i) => !matched.has(i.toLowerCase())) : [],
    notes,
  });
  for (;;) {
    if (requests >= MAX_TOOL_REQUESTS) {
      if (sorted)
        throw new UsageError(
          `sort reads every page, and this listing has more than ${MAX_TOOL_REQUESTS}: narrow it (ecosystem, tickers, where) or leave out sort`,
        );
      notes.push(`stopped after ${MAX_TOOL_REQUESTS} requests, the most one call makes: next_cursor goes on`);
      return done(true, { unit, skip: 0 });
    }
    let page: Page;
    try {
      const read = await readUnit(o, unit, items, MAX_TOOL_REQUESTS - requests);
      page = read.page;
      requests += read.requests - 1;
      if (read.cut > 0)
        notes.push(
          `request ${unit}: its answer has ${read.cut} more page${read.cut === 1 ? "" : "s"} than one call reads (${MAX_TOOL_REQUESTS} requests); narrow the list to read them`,
        );
    } catch (error) {
      if (sorted && requests > 0 && error instanceof PaymentError)
        throw new PaymentError(
          `sort reads every page, and how many there are was not known before: ${error.message}`,
        );
      // What was read (and maybe paid for) is kept: the answer says what failed and where to go on.
      if (sorted || requests === 0 || !(error instanceof CliError) || error instanceof UsageError)
        throw error;
      if (error instanceof InterruptedError) throw error;
      notes.push(
        `${selector ? "request" : "page"} ${unit} failed: ${error.message}; next_cursor tries it again`,
      );
      return done(true, { unit, skip });
    }
    requests++;
    units ??= page.pagination?.pageCount;
    o.onProgress?.({ requests, total: units });
    if (sorted && requests === 1 && !selector && units !== undefined && units > MAX_TOOL_REQUESTS)
      throw new UsageError(
        `sort reads every page, and this listing has ${units}, more than the ${MAX_TOOL_REQUESTS} one call reads: narrow it (ecosystem, tickers, where) or leave out sort`,
      );
    if (sorted && requests === 1 && units !== undefined && units > 1) {
      const refusal = o.mayRead?.(Math.min(units, MAX_TOOL_REQUESTS + 1) - 1);
      if (refusal) throw new UsageError(refusal);
    }
    let fresh = 0;
    for (let i = 0; i < page.records.length; i++) {
      const record = page.records[i];
      if (selector) {
        const key = selectorKey(record, selector.kind);
        if (key !== undefined) matched.add(key);
      }
      const id = recordId(record);
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      fresh++;
      if (i < skip || (filter && !filter(record))) continue;
      out.push(record);
      if (!sorted && out.length === o.limit) {
        if (i + 1 < page.records.length) return done(true, { unit, skip: i + 1 });
        return done(hasMore(o, page, units), { unit: unit + 1, skip: 0 });
      }
    }
    o.afterPage?.();
    // A page that brings nothing new ends the walk, whatever page count the server claims.
    const repeated = page.records.length > 0 && fresh === 0 && !selector;
    if (repeated) notes.push(`page ${unit} repeated records already read: the listing ends there`);
    if (repeated || !hasMore(o, page, units)) break;
    unit++;
    skip = 0;
  }
  if (!sorted) return done(false, undefined);
  const { sortRecords } = await import("../../query/records.js");
  const whole = sortRecords(out, o.sort!);
  const offset = o.from.offset ?? 0;
  const shown = whole.slice(offset, offset + o.limit);
  out.length = 0;
  out.push(...shown);
  const more = offset + o.limit < whole.length;
  return {
    ...done(false, undefined),
    more,
    next: more ? { unit: 1, skip: 0, offset: offset + o.limit } : undefined,
  };
}

/** A cursor as the agent carries it: the position, bound to the arguments it continues. */
export function encodeCursor(position: Position, binding: string): string {
  const parts = [position.unit, position.skip, position.offset ?? "", binding];
  return Buffer.from(parts.join(":")).toString("base64url");
}

/** The position a cursor names; a cursor made for other arguments (or none of ours) is refused. */
export function decodeCursor(cursor: string, binding: string): Position {
  const [unit, skip, offset, bound] = Buffer.from(cursor, "base64url").toString("utf8").split(":");
  const whole = (s: string | undefined) => (s !== undefined && /^\d{1,9}$/.test(s) ? Number(s) : undefined);
  const position = {
    unit: whole(unit),
    skip: whole(skip),
    offset: offset === "" ? undefined : whole(offset),
  };
  if (
    position.unit === undefined ||
    position.unit < 1 ||
    position.skip === undefined ||
    (offset !== "" && position.offset === undefined)
  )
    throw new UsageError(
      "cursor: not a cursor this tool gave; pass next_cursor exactly as an answer gave it",
    );
  if (bound !== binding)
    throw new UsageError(
      "cursor: it continues a call with other arguments; pass the same arguments (limit and fields may change) with it",
    );
  return { unit: position.unit, skip: position.skip, offset: position.offset };
}
