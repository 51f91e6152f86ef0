import { MAX_SELECTOR_ITEMS } from "../contract/api.js";
import type { SelectorKind } from "../contract/endpoints.js";
import { type IdentityPart, identityOf } from "../contract/identity.js";
import { ApiError, CliError } from "../errors.js";
import type { Query } from "./client.js";
import type { Delivery } from "./delivery.js";
import { fetchPage, type Page, PageCeilingError, type PageWalk, type Requester, walkPages } from "./pager.js";
import type { RecordQuery, RecordStreamResult, Selector } from "./records.js";
import { inOrder } from "./window.js";

// A list of tokens walked request by request: the list in chunks of what one request carries,
// crossed with the values of a fan-out parameter when the query has one (each chunk asked once per
// value, in the order given), the requests concurrent within the window and their records
// delivered in the user's order. What no record answered is worked out here, for the run's note.

/** One request of a list walk: a chunk of the list, and the fan-out's value it is asked with. */
export interface Unit {
  items: string[];
  fan?: { value: string; path: string };
}

/** Splits a list into requests of at most `size` items, in order. */
export function chunk<T>(items: readonly T[], size = MAX_SELECTOR_ITEMS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The requests a list walk makes, in order: each chunk of the list, once per fan-out value. */
export function unitsOf(recordQuery: Pick<RecordQuery, "fanOut">, selector: Selector): Unit[] {
  const fans = recordQuery.fanOut?.values ?? [undefined];
  return chunk(selector.items, selector.perRequest).flatMap((items) =>
    fans.map((fan) => (fan ? { items, fan } : { items })),
  );
}

const PART_FOR: Record<SelectorKind, IdentityPart> = { id: "id", ticker: "symbol", address: "address" };

/** The value of a record that a selector item names, for matching answers to what was asked. */
export function selectorKey(record: unknown, kind: SelectorKind): string | undefined {
  return identityOf(record, PART_FOR[kind])?.toLowerCase();
}

/** The key an item answered under: the item's own (lower case), after the fan-out value it was asked with. */
const matchKey = (key: string, fan: string | undefined) => (fan === undefined ? key : `${fan}\u0000${key}`);

/**
 * The items no record answered (under every fan-out value), and with a fan-out, the items answered
 * under some values and not others, with the values that answered nothing.
 */
export function unanswered(
  recordQuery: Pick<RecordQuery, "fanOut">,
  items: readonly string[],
  matched: ReadonlySet<string>,
): Pick<RecordStreamResult, "missing" | "missingOn"> {
  const values = recordQuery.fanOut?.values.map((fan) => fan.value) ?? [undefined];
  const missing: string[] = [];
  const missingOn: Array<{ item: string; values: string[] }> = [];
  for (const item of items) {
    const absent = values.filter((v) => !matched.has(matchKey(item.toLowerCase(), v)));
    if (absent.length === values.length) missing.push(item);
    else if (absent.length) missingOn.push({ item, values: absent as string[] });
  }
  return { missing, missingOn };
}

/**
 * The list's requests, scheduled through the window and delivered in the user's order; the items
 * no record matched end in `result.missing` (and `missingOn`, with a fan-out).
 */
export async function* walkUnits(
  client: Requester,
  recordQuery: RecordQuery,
  selector: Selector,
  delivery: Delivery,
  result: RecordStreamResult,
): AsyncGenerator<unknown[]> {
  const units = unitsOf(recordQuery, selector).slice(recordQuery.firstUnit ?? 0);
  result.matched ??= new Set<string>();
  const matched = result.matched;
  // A unit's walk that reached the page ceiling: its records are delivered, then the run stops.
  const ceilings = new Map<Unit, PageCeilingError>();
  const results = inOrder(
    (index) =>
      fetchUnit(client, recordQuery, selector, units[index]!, (ceiling) =>
        ceilings.set(units[index]!, ceiling),
      ),
    0,
    units.length - 1,
    () => (delivery.full ? 0 : recordQuery.window),
  );
  for (let done = 1; ; done++) {
    const next = await nextUnit(results, recordQuery, selector, units, done - 1);
    if (next.done) break;
    const unit = units[done - 1]!;
    for (const key of answeredKeys(next.value, unit, selector.kind))
      matched.add(matchKey(key, unit.fan?.value));
    const batch = delivery.keep(next.value);
    recordQuery.onProgress?.({
      done,
      total: units.length,
      unit: "request",
      records: delivery.delivered,
      last: done === units.length,
    });
    if (batch.length) yield batch;
    if (delivery.full) return;
    const ceiling = ceilings.get(unit);
    if (ceiling) throw noteUnrequested(ceiling, units.slice(done), selector.items.length);
  }
  if (!delivery.full) Object.assign(result, unanswered(recordQuery, selector.items, matched));
}

/**
 * The items a request's records answer: a request of one item is answered by any record (the
 * service may name the token otherwise, "ETH/USDC:USDC" for ETH); a longer one by the records that
 * name an item.
 */
function answeredKeys(records: unknown[], unit: Unit, kind: SelectorKind): string[] {
  if (unit.items.length === 1) return records.length ? [unit.items[0]!.toLowerCase()] : [];
  return records.flatMap((record) => selectorKey(record, kind) ?? []);
}

/** A request for the records of `unit`, as a short label: "AERO,VIRTUAL" or "ETH dex=nado". */
function unitLabel(unit: Unit, param: string | undefined): string {
  const items = unit.items.length > 3 ? `${unit.items.slice(0, 3).join(",")},…` : unit.items.join(",");
  return unit.fan && param ? `${items} ${param}=${unit.fan.value}` : items;
}

/** The next unit's records; a failure in a list of several requests names what was left unread. */
async function nextUnit(
  results: AsyncGenerator<unknown[]>,
  recordQuery: RecordQuery,
  selector: Selector,
  units: readonly Unit[],
  done: number,
): Promise<IteratorResult<unknown[]>> {
  try {
    return await results.next();
  } catch (error) {
    // A fan-out's first request failing leaves the whole list unread: nothing more to name.
    const named = units.length > 1 && !(recordQuery.fanOut && done === 0);
    if (error instanceof CliError && named)
      error.message += ` [${failedUnit(recordQuery, selector, units, done)}]`;
    throw error;
  }
}

function failedUnit(
  recordQuery: RecordQuery,
  selector: Selector,
  units: readonly Unit[],
  done: number,
): string {
  if (!recordQuery.fanOut) {
    const size = selector.perRequest ?? MAX_SELECTOR_ITEMS;
    const total = selector.items.length;
    const missing = selector.items.slice(done * size);
    const names = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", …" : "");
    return `request for items ${done * size + 1}-${Math.min(total, (done + 1) * size)} of ${total} failed: ${missing.length} items are missing: ${names}`;
  }
  const left = units.slice(done);
  const names = left.slice(0, 6).map((unit) => unitLabel(unit, recordQuery.fanOut?.param));
  return `request ${done + 1} of ${units.length} (${names[0]}) failed: ${left.length} requests are missing: ${names.join("; ")}${left.length > 6 ? "; …" : ""}`;
}

/** The page ceiling one unit reached, saying which of the list's requests after it were not made. */
function noteUnrequested(ceiling: PageCeilingError, left: readonly Unit[], total: number): PageCeilingError {
  if (left.length) ceiling.message += ` [${left.length} more requests of the list of ${total} were not made]`;
  return ceiling;
}

/** No record for the one item asked: the service's 404 (not one that says the path is unknown). */
function notFound(error: unknown, unit: Unit): boolean {
  return (
    unit.items.length === 1 &&
    error instanceof ApiError &&
    error.status === 404 &&
    !/no (such )?(route|endpoint)/i.test(error.message)
  );
}

/** A record with the fan-out value it was asked with, under the parameter's name, first. */
function stamp(record: unknown, param: string, value: string): unknown {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return record;
  const out: Record<string, unknown> = { [param]: value, ...(record as Record<string, unknown>) };
  out[param] = value;
  return out;
}

/** One unit's records in the user's order: its one page, or every page up to the page ceiling. */
async function fetchUnit(
  client: Requester,
  recordQuery: RecordQuery,
  selector: Selector,
  unit: Unit,
  onCeiling: (ceiling: PageCeilingError) => void,
): Promise<unknown[]> {
  const query = queryOf(recordQuery, selector, unit);
  const endpoint = unit.fan ? { ...recordQuery.endpoint, path: unit.fan.path } : recordQuery.endpoint;
  let records: unknown[];
  try {
    // The service answers in its own order: --page's one page, an unpaged endpoint's one answer or
    // every page, put back in the user's.
    records =
      recordQuery.page !== undefined || endpoint.paged === false
        ? (await fetchPage(client, endpoint, query, recordQuery.page ?? 1, recordQuery.signal)).records
        : await everyPage(client, { ...recordQuery, endpoint }, query, onCeiling);
  } catch (error) {
    if (notFound(error, unit)) return [];
    throw error;
  }
  const ordered = orderBySelector(records, unit.items, selector.kind);
  return unit.fan && recordQuery.fanOut
    ? ordered.map((record) => stamp(record, recordQuery.fanOut!.param, unit.fan!.value))
    : ordered;
}

/** walkPages over one query, with the query's window, speculation, page ceiling and repeat note. */
export function pagesOf(
  client: Requester,
  recordQuery: RecordQuery,
  query: Query,
  walk: Pick<PageWalk, "wanted" | "prefetch" | "firstPage" | "seen">,
): AsyncGenerator<Page> {
  return walkPages({
    fetch: (page) => fetchPage(client, recordQuery.endpoint, query, page, recordQuery.signal),
    pageSize: recordQuery.endpoint.pageSize,
    window: recordQuery.window,
    speculate: recordQuery.speculate,
    maxPages: recordQuery.maxPages,
    onRepeat: recordQuery.onRepeat,
    ...walk,
  });
}

/** The records of every page of a query; a walk that reaches the page ceiling keeps what it read. */
async function everyPage(
  client: Requester,
  recordQuery: RecordQuery,
  query: Query,
  onCeiling: (ceiling: PageCeilingError) => void,
): Promise<unknown[]> {
  const records: unknown[] = [];
  try {
    for await (const page of pagesOf(client, recordQuery, query, {
      wanted: () => Number.POSITIVE_INFINITY,
    })) {
      records.push(...page.records);
    }
  } catch (error) {
    if (!(error instanceof PageCeilingError)) throw error;
    onCeiling(error);
  }
  return records;
}

/** Orders records by the position of the item that names them; unmatched records keep their place at the end. */
export function orderBySelector(records: unknown[], items: readonly string[], kind: SelectorKind): unknown[] {
  const position = new Map<string, number>();
  items.forEach((item, index) => {
    const key = item.toLowerCase();
    if (!position.has(key)) position.set(key, index);
  });
  return records
    .map((record, index) => ({
      record,
      index,
      at: position.get(selectorKey(record, kind) ?? "") ?? items.length,
    }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map((entry) => entry.record);
}

/** The request a list walk starts with: its first unit's path and query. */
export function firstUnitRequest(
  recordQuery: RecordQuery,
  selector: Selector,
): { path: string; query: Query } {
  const unit = unitsOf(recordQuery, selector)[0] ?? { items: [] };
  return { path: unit.fan?.path ?? recordQuery.endpoint.path, query: queryOf(recordQuery, selector, unit) };
}

/** What one unit's request sends: the query's filters, its items, its fan-out value. */
function queryOf(recordQuery: RecordQuery, selector: Selector, unit: Unit): Query {
  return [
    ...recordQuery.query,
    [selector.param, unit.items],
    ...(unit.fan && recordQuery.fanOut ? ([[recordQuery.fanOut.param, unit.fan.value]] as const) : []),
  ];
}
