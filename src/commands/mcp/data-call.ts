import { createHash } from "node:crypto";
import { Delivery } from "../../api/delivery.js";
import { unanswered } from "../../api/list-walk.js";
import type { Requester } from "../../api/pager.js";
import { type RecordQuery, type RecordStreamResult, streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { dotPaths } from "../../contract/shapes.js";
import { CliError, InterruptedError, PaymentError, UsageError } from "../../errors.js";
import { getPath, pickPaths } from "../../json/dot-paths.js";
import type { DataCommandDefinition } from "../data/definition.js";
import type { ParsedDataOptions } from "../data/run.js";
import { fitRecords } from "./answers.js";
import { compactFields, forAgent } from "./results.js";
import { DEFAULT_TOOL_LIMIT, type ToolSpec } from "./tools.js";
import type { Walk, Walks } from "./walks.js";

// A data tool's call: its records from a walk the server keeps (walks.ts) over the command line's
// own walker (streamRecords, with its dedupe, filter and page logic), so that a continuation reads
// nothing it already read, and each page is paid for once. A call reads only what its answer needs:
// one request at a time, at most MAX_TOOL_REQUESTS, stopping the moment the answer is full. "More
// exist" comes from what the service said (its page count, a short page, the list's end), never
// from a request made only to find out.

/** The most requests one tool call makes: a walk past it stops with a cursor (or, sorted, refuses). */
export const MAX_TOOL_REQUESTS = 50;

export interface DataCall {
  tool: ToolSpec;
  definition: DataCommandDefinition;
  args: Record<string, unknown>;
  run: RunContext;
  signal: AbortSignal;
  walks: DataWalks;
  /** Whose walks these are (mcp --http: a token's name): a cursor continues only its holder's. */
  scope?: string | undefined;
  /** The call's progress, one notification a unit read, when the client asked for it. */
  progress: ((done: number, total: number | undefined) => void) | undefined;
}

/** The tool and arguments a cursor continues (all but how much to show and of what), and whose. */
export function bindingOf(tool: string, args: Record<string, unknown>, scope?: string): string {
  const { limit: _l, cursor: _c, fields: _f, ...rest } = args;
  const stable = JSON.stringify([
    tool,
    Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ...(scope === undefined ? [] : [scope]),
  ]);
  return createHash("sha256").update(stable).digest("base64url").slice(0, 22);
}

/** What a data walk holds beside its stream: the checks of its first call, its list, its matches. */
export interface WalkParts {
  /** Refuses a where or sort field no record read so far has (the first call's options). */
  decide: () => void;
  /** The list the walk reads (tickers, addresses or ids), and the argument that named it. */
  items: readonly string[] | undefined;
  listName: string;
  result: RecordStreamResult;
  /** Ids already delivered, the filter and the rows: kept when the stream is opened again. */
  delivery: Delivery;
}

/** The walks of a server's data tools, and one of them. */
export type DataWalks = Walks<WalkParts>;
type DataWalk = Walk<WalkParts>;

export async function dataAnswer(
  call: DataCall,
  opts: Record<string, unknown>,
  notes: string[],
): Promise<Record<string, unknown>> {
  const { definition, args, run } = call;
  const asked = args.fields as string[] | undefined;
  if (asked && asked.length === 0)
    return { records: [], count: 0, more: false, fields: dotPaths(definition.shape) };
  const { parseDataOptions, estimateRequests } = await import("../data/run.js");
  const parsed = await parseDataOptions(run, definition, opts as never);
  const binding = bindingOf(call.tool.name, args, call.scope);
  const limit = (args.limit as number | undefined) ?? DEFAULT_TOOL_LIMIT;
  if (typeof args.cursor === "string") {
    const { walk, replay } = call.walks.resume(args.cursor, binding);
    if (!replay) return readAndAnswer(call, walk, parsed, limit, notes);
    // The same continuation again (its answer was lost on the way): the same records, no request.
    walk.attend(call.signal, 0);
    try {
      return answerOf(call, walk, walk.previous!.records, parsed, notes, true);
    } finally {
      walk.leave();
    }
  }
  const client = await run.client({
    keyRequired: !definition.endpoint.keyOptional && !parsed.payment,
    payment: parsed.payment,
    estimate: estimateRequests(parsed.query),
  });
  if (parsed.payment?.dryRun) {
    // A server started with --dry-run says what a call would pay, and reads nothing.
    const [{ planPayment }, { firstRequest }] = await Promise.all([
      import("../../payment/dry-run.js"),
      import("../../api/records.js"),
    ]);
    notes.push(await planPayment(client, run.payment!, firstRequest(parsed.query)));
    return { records: [], count: 0, more: false };
  }
  const { selector, filter, rows } = parsed.query;
  const parts: WalkParts = {
    decide: () => parsed.seen.checkDeciding(),
    items: selector?.items,
    listName: selector ? LIST_NAMES[selector.kind] : "",
    result: { missing: [] },
    delivery: new Delivery({ filter, rows }),
  };
  const walk = call.walks.start(binding, parts, (done) => openStream(walk, client, parsed, done));
  try {
    return await readAndAnswer(call, walk, parsed, limit, notes);
  } catch (error) {
    // A first call that fails gives no cursor: nothing can continue its walk.
    call.walks.drop(walk);
    throw error;
  }
}

/** The walk's stream from where it stands: page mode from the next page, a list from its next chunk. */
function openStream(
  walk: DataWalk,
  client: Requester,
  parsed: ParsedDataOptions,
  unitsDone: number,
): AsyncGenerator<unknown[]> {
  const { query, payment, sort } = parsed;
  const selector = query.selector;
  const base = selector ? unitsDone : 0;
  const streamQuery: RecordQuery = {
    ...query,
    limit: undefined,
    // One request at a time, but for a sorted walk with a key (it reads every page anyway).
    window: sort && !payment ? query.window : 1,
    speculate: 1,
    prefetch: false,
    signal: walk.life.signal,
    ...(selector ? { firstUnit: unitsDone } : unitsDone > 0 ? { firstPage: unitsDone + 1 } : {}),
    onProgress: (step) => {
      walk.unitRead({
        done: step.done + base,
        total: step.total === undefined ? undefined : step.total + base,
        last: step.last,
      });
      // A where or sort field no record of the page has is refused before the next request, even
      // when the filter dropped every record of it (no batch comes then).
      walk.parts.decide();
    },
  };
  return streamRecords(walk.requester(client), streamQuery, walk.parts.result, walk.parts.delivery);
}

/** The argument that names a list, by the kind of its items. */
const LIST_NAMES = { ticker: "tickers", address: "addresses", id: "ids" } as const;

async function readAndAnswer(
  call: DataCall,
  walk: DataWalk,
  parsed: ParsedDataOptions,
  limit: number,
  notes: string[],
): Promise<Record<string, unknown>> {
  let units = 0;
  walk.onUnit = (unit) => call.progress?.(++units, unit.total);
  // The call holds the walk, and may start no request until its reading says how many.
  walk.attend(call.signal, 0);
  try {
    const records = parsed.sort
      ? await readSorted(call, walk, parsed, limit)
      : await readUnsorted(call, walk, limit, notes);
    return answerOf(call, walk, records, parsed, notes, false);
  } finally {
    walk.onUnit = undefined;
    walk.leave();
  }
}

/** Reads until `limit` records are in, the listing ends, or the call's requests are spent. */
async function readUnsorted(
  call: DataCall,
  walk: DataWalk,
  limit: number,
  notes: string[],
): Promise<unknown[]> {
  walk.grant(MAX_TOOL_REQUESTS);
  while (walk.buffer.length < limit) {
    let pulled: Awaited<ReturnType<Walk["pull"]>>;
    try {
      pulled = await walk.pull(call.signal);
    } catch (error) {
      // What was read (and maybe paid for) is kept: the answer says what failed and where to go on.
      if (!resumable(error) || (walk.given === 0 && walk.buffer.length === 0)) throw error;
      notes.push(
        `${unitName(walk.parts)} ${walk.unitsDone + 1} failed: ${(error as Error).message}; next_cursor tries it again`,
      );
      break;
    }
    walk.parts.decide();
    if (pulled === "ended") break;
    if (pulled === "parked") {
      notes.push(`stopped after ${MAX_TOOL_REQUESTS} requests, the most one call makes: next_cursor goes on`);
      break;
    }
  }
  return walk.take(limit);
}

/**
 * A sorted walk reads every page first (the top by a field is known only then), within one call's
 * requests; with --pay, the pages past the first are checked against --max-spend before any is
 * requested. Its sorted whole is kept: continuations hand it out and read nothing.
 */
async function readSorted(
  call: DataCall,
  walk: DataWalk,
  parsed: ParsedDataOptions,
  limit: number,
): Promise<unknown[]> {
  if (walk.ended) return walk.take(limit);
  walk.grant(1);
  let first = true;
  for (;;) {
    const pulled = await walk.pull(call.signal).catch((error: unknown) => {
      if (!first && error instanceof PaymentError)
        throw new PaymentError(
          `sort reads every page, and how many there are was not known before: ${error.message}`,
        );
      throw error;
    });
    walk.parts.decide();
    if (pulled === "ended") break;
    if (first && (pulled === "parked" || walk.unitsDone >= 1)) {
      first = false;
      const total = walk.total;
      if (total !== undefined && total > MAX_TOOL_REQUESTS && !walk.parts.items)
        throw new UsageError(
          `sort reads every page, and this listing has ${total}, more than the ${MAX_TOOL_REQUESTS} one call reads: narrow it (ecosystem, tickers, where) or leave out sort`,
        );
      if (total !== undefined && total > 1) {
        const refusal = call.run.payment?.refusesMore(Math.min(total, MAX_TOOL_REQUESTS + 1) - 1);
        if (refusal) throw new UsageError(refusal);
      }
      walk.grant(MAX_TOOL_REQUESTS - 1);
      continue;
    }
    if (pulled === "parked")
      throw new UsageError(
        `sort reads every page, and this listing has more than ${MAX_TOOL_REQUESTS}: narrow it (ecosystem, tickers, where) or leave out sort`,
      );
  }
  const { sortRecords } = await import("../../query/records.js");
  walk.replace(sortRecords(walk.buffer, parsed.sort!));
  return walk.take(limit);
}

/** A failure that leaves the walk able to go on from the unit that failed. */
function resumable(error: unknown): boolean {
  return (
    error instanceof CliError &&
    !(error instanceof UsageError) &&
    !(error instanceof InterruptedError) &&
    !(error instanceof PaymentError)
  );
}

const unitName = (parts: WalkParts) => (parts.items ? "request" : "page");

/** The answer: the records with the fields asked for, bounded, and the cursor when more exist. */
function answerOf(
  call: DataCall,
  walk: DataWalk,
  taken: unknown[],
  parsed: ParsedDataOptions,
  notes: string[],
  replayed: boolean,
): Record<string, unknown> {
  const { items, listName, result } = walk.parts;
  const shown = parsed.fields ?? compactFields(call.tool, call.definition, taken);
  for (const record of taken) parsed.seen.see(record);
  const picked = taken.map((record) => forAgent(pickPaths(record, shown)));
  // Records past the answer's byte budget go back to the walk: the cursor hands them out next.
  const { records, cut } = fitRecords(picked);
  if (!replayed) walk.giveBack(taken.slice(records.length));
  if (cut) notes.push(cut);
  notes.push(...parsed.seen.notes());
  const more = walk.more;
  const { missing, missingOn } =
    !more && items
      ? unanswered(parsed.query, items, result.matched ?? new Set())
      : { missing: [], missingOn: [] };
  const absent = [
    ...missing,
    ...(missingOn ?? []).map(({ item, values }) => `${item} on ${values.join(", ")}`),
  ];
  if (absent.length && parsed.strict)
    throw new CliError(
      `no data for ${absent.length} of ${items!.length} ${listName}: ${absent.slice(0, 20).join(", ")}${absent.length > 20 ? ", …" : ""} (strict)`,
    );
  if (more && walk.buffer.length === 0 && walk.total === undefined && !walk.failed && !items)
    notes.push(
      "more is a guess: the service gives no page count here and the last page read was full, so the next page may be empty (one request, paid when the server pays)",
    );
  const held = shown.filter((path) => taken.some((record) => getPath(record, path) !== undefined));
  const kept = more && call.walks.keep(walk);
  if (!more) call.walks.drop(walk);
  else if (!kept)
    notes.push(
      "this walk is too large for the server to keep: narrow it (fields do not count; where, tickers and ecosystem do)",
    );
  return {
    records,
    count: records.length,
    more,
    ...(kept ? { next_cursor: call.walks.cursorOf(walk) } : {}),
    fields: held,
    pages: { read: walk.requests, total: walk.total ?? null },
    ...(absent.length ? { missing: absent.map(forAgent) } : {}),
  };
}
