import { unitsOf } from "../../api/list-walk.js";
import { inPaymentOrder } from "../../api/pay-order.js";
import {
  firstRequest,
  type Progress,
  type RecordQuery,
  type RecordStreamResult,
  type Selector,
  streamRecords,
} from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { DEFAULT_MAX_PAGES } from "../../contract/limits.js";
import type { Shape } from "../../contract/shapes.js";
import { ApiError, CliError } from "../../errors.js";
import type { OutputFormat } from "../../flags/formats.js";
import type { Column } from "../../output/columns.js";
import { ProgressLine } from "../../output/progress.js";
import { createWriter } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import type { PaymentOptions, RequestEstimate } from "../../payment/session.js";
import type { SortSpec } from "../../query/records.js";
import type { DataCommandDefinition } from "./definition.js";
import { FieldsSeen } from "./fields-seen.js";
import {
  checkPaging,
  endpointFor,
  FLAG_FOR,
  parseTokens,
  parseWatch,
  pickFields,
  queryParams,
  tableColumns,
  whereFilter,
} from "./flag-groups.js";
import type { DataOptions } from "./flags.js";
import { chooseFormat, warnTableOnly } from "./output.js";
import { writeStream } from "./partial.js";
import { parseSortFlag, pathListing } from "./path-flags.js";

export interface ParsedDataOptions {
  query: RecordQuery;
  format: OutputFormat;
  fields: string[] | undefined;
  /** The named fields, looked for in the records (a field no record has is named). */
  seen: FieldsSeen;
  payment: PaymentOptions | undefined;
  columns: (records: unknown[]) => Column[];
  sort: SortSpec | undefined;
  /** With --sort, --limit cuts the sorted whole (query.limit is then left out: every page is read). */
  sortLimit: number | undefined;
  /** --strict: items of the list that match nothing fail the run. */
  strict: boolean;
  /** --watch: milliseconds between refreshes. */
  watchMs: number | undefined;
  /** --count: stop after this many refreshes. */
  watchCount: number | undefined;
  /** --changes: only the records that changed since the last refresh. */
  watchChanges: boolean;
  /** The watch streams NDJSON lines (a pipe, or --ndjson) instead of redrawing a table. */
  watchStream: boolean;
  /** --diff: what changed, field by field (NDJSON lines into a pipe, a line under the table). */
  watchDiff: boolean;
}

/** Checks what the flags say together, before any request; the result is all a run needs. */
export async function parseDataOptions(
  ctx: RunContext,
  definition: DataCommandDefinition,
  opts: DataOptions,
): Promise<ParsedDataOptions> {
  const tokens = await parseTokens(ctx, definition, opts);
  checkPaging(opts.page, tokens.selector);
  const format = await chooseFormat(ctx, opts);
  // Fields the records may carry beyond their shape are looked for in them (fields-seen.ts).
  const seen = new FieldsSeen(definition.name, definition.otherRecords);
  const { fields, chosen } = pickFields(definition, opts, seen);
  const payment = await paymentOptions(ctx, opts);
  const columns = tableColumns(definition, opts, chosen);
  const sort = parseSortFlag(opts.sort, definition.shape, definition.name, seen);
  // --watch with another format is refused below; no warning first.
  if (opts.watch === undefined) warnTableOnly(ctx, format, opts);
  const filter = await whereFilter(definition, opts, seen);
  const watch = parseWatch(ctx, opts);
  const window = ctx.settings.concurrency * 2;
  const { endpoint, fanOut } = await endpointFor(ctx, definition, opts);
  return {
    format,
    fields,
    seen,
    payment,
    columns,
    sort,
    sortLimit: sort ? opts.limit : undefined,
    strict: Boolean(opts.strict),
    ...watch,
    query: {
      endpoint,
      query: queryParams(definition, opts, tokens),
      selector: tokens.selector,
      fanOut,
      rows: definition.rows,
      // The top n by a field is known only once every record is in: sorting reads all pages.
      limit: sort ? undefined : opts.limit,
      filter,
      page: opts.page,
      maxPages: opts.maxPages,
      window,
      // Requests past the end cost nothing with a key, but each one is paid for without one.
      speculate: payment ? 1 : ctx.settings.concurrency,
      prefetch: !payment,
    },
  };
}

/** flags → parsed options → requests (pager and chunker over the client) → records → a writer. */
export async function runDataCommand(
  ctx: RunContext,
  definition: DataCommandDefinition,
  opts: DataOptions,
): Promise<void> {
  if (opts.fields === true) {
    // `--fields` alone: the paths it takes, one a line (like `gh ... --json` with no fields).
    await ctx.io.out(pathListing(definition.shape));
    return;
  }
  const parsed = await parseDataOptions(ctx, definition, opts);
  const { query, format, fields, payment } = parsed;
  const client = await ctx.client({
    keyRequired: !definition.endpoint.keyOptional && !payment,
    payment,
    estimate: estimateRequests(query),
    // A watch shows what changed: its refreshes never come from the response cache.
    fresh: parsed.watchMs !== undefined,
    liveSandbox: parsed.watchMs !== undefined,
  });
  if (payment?.dryRun) {
    const { planPayment } = await import("../../payment/dry-run.js");
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, firstRequest(query))}`);
    return;
  }
  if (parsed.watchMs !== undefined) {
    const { runWatch } = await import("./watch.js");
    return runWatch(ctx, client, parsed, definition.emptyMessage);
  }
  const writer = createWriter(format, ctx.io, {
    fields,
    columns: parsed.columns,
    emptyMessage: definition.emptyMessage,
    sort: parsed.sort,
    limit: parsed.sortLimit,
    crlf: opts.crlf,
    emptyColumns: leafPaths(definition.shape),
  });
  // Progress on a terminal's stderr, unless ndjson is streaming to that same terminal.
  const progress = new ProgressLine(
    ctx.io,
    ctx.io.stderrIsTTY && (format !== "ndjson" || !ctx.io.stdoutIsTTY),
  );
  const lastProgress = followProgress(ctx, parsed, progress);
  query.onRepeat = (note) => ctx.io.warn(note);
  const result: RecordStreamResult = { missing: [] };
  // A failure part way writes what was fetched when it is kept (the page ceiling, records paid for).
  // Paid, the pages are paid in page order: a cap stops the walk at the first page it cannot pay.
  const records = streamRecords(payment ? inPaymentOrder(client) : client, query, result);
  await writeStream(ctx, parsed.seen.guard(records), writer, () => progress.clear()).catch(
    (error: unknown) => {
      throw nameOtherGeneration(error, definition, query.endpoint.path);
    },
  );
  for (const note of parsed.seen.notes()) ctx.io.warn(note);
  tellWhatWasNotThere(ctx, definition, parsed, lastProgress(), result);
}

/**
 * Follows the walk page by page: the deciding fields checked, the --sort note said once, the
 * progress line updated; gives the last progress.
 */
function followProgress(
  ctx: RunContext,
  parsed: ParsedDataOptions,
  progress: ProgressLine,
): () => Progress | undefined {
  let costTold = false;
  let lastProgress: Progress | undefined;
  parsed.query.onProgress = (step) => {
    // A page whose records --where all dropped yields no batch: the deciding fields are checked
    // here too, after the first page, not after every page was read (and paid for).
    parsed.seen.checkDeciding();
    if (!costTold && parsed.sort !== undefined && step.unit === "page" && step.total !== undefined) {
      costTold = true;
      const note = sortCost(parsed, step.total);
      if (note) {
        progress.clear();
        ctx.io.info(note);
      }
    }
    progress.update(step);
    lastProgress = step;
  };
  return () => lastProgress;
}

/**
 * What --sort reads, said after the first page: with --page, that one page alone (of several);
 * with --limit, every page, when that is more than a few.
 */
function sortCost(parsed: ParsedDataOptions, total: number): string | undefined {
  const { page, maxPages } = parsed.query;
  if (page !== undefined)
    return total > 1 && page <= total
      ? `tokenintel: --sort orders page ${page} alone, not all ${total} pages (without --page it reads and sorts them all)`
      : undefined;
  if (parsed.sortLimit === undefined) return undefined;
  const pages = Math.min(total, maxPages ?? DEFAULT_MAX_PAGES);
  if (pages <= SORT_COST_PAGES) return undefined;
  return `tokenintel: --sort reads all ${pages} pages to find the top ${parsed.sortLimit} (use --page or a smaller --max-pages to read fewer)`;
}

/** After the records: a --page past the last page, and the items of the list no record answered. */
function tellWhatWasNotThere(
  ctx: RunContext,
  definition: DataCommandDefinition,
  parsed: ParsedDataOptions,
  lastProgress: Progress | undefined,
  result: RecordStreamResult,
): void {
  const { query } = parsed;
  // --page past the last page: an empty answer that says why (the server said how many there are).
  const total = lastProgress?.unit === "page" ? lastProgress.total : undefined;
  if (query.page !== undefined && lastProgress?.records === 0 && total !== undefined && query.page > total)
    ctx.io.warn(
      `page ${query.page} is past the last page: the listing has ${total} page${total === 1 ? "" : "s"}`,
    );
  if (!query.selector) return;
  const lines = unansweredLines(definition, query.selector, result);
  if (lines.length && parsed.strict) throw new CliError(`${lines.join("; ")} (--strict)`);
  for (const line of lines) ctx.io.warn(line);
}

/**
 * What no record answered, in lines: the items of the list none did, and with a fan-out, the
 * items some of its values did not ("TSLA on nado, lighter").
 */
function unansweredLines(
  definition: DataCommandDefinition,
  selector: Selector,
  result: RecordStreamResult,
): string[] {
  const lines: string[] = [];
  if (result.missing.length) {
    const noun = FLAG_FOR[selector.kind].slice(2);
    lines.push(
      `no data for ${result.missing.length} of ${selector.items.length} ${noun}: ${firstOf(result.missing, ", ")}`,
    );
  }
  const partly = (result.missingOn ?? []).map(({ item, values }) => `${item} on ${values.join(", ")}`);
  if (partly.length && definition.fanOut)
    lines.push(`no data on every ${definition.fanOut.noun} asked: ${firstOf(partly, "; ")}`);
  return lines;
}

/** The first 20 of a list, and how many more. */
function firstOf(list: readonly string[], separator: string): string {
  const more = list.length > 20 ? ` and ${list.length - 20} more` : "";
  return `${list.slice(0, 20).join(separator)}${more}`;
}

/**
 * A 404 that says "no route" on one generation of an endpoint's paths names the other (the provider
 * has not said whether the older paths were retired): the path, and the setting that calls it.
 */
function nameOtherGeneration(error: unknown, definition: DataCommandDefinition, path: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 404 || !definition.newerPath) return error;
  if (!/no route/i.test(error.message)) return error;
  const [generation, other] =
    path === definition.newerPath ? ["older", definition.endpoint.path] : ["newer", definition.newerPath];
  error.message += ` (the ${generation} path of this endpoint is ${other}: --api-paths ${generation})`;
  return error;
}

/** Every leaf dot path of a shape, in order (the columns of an empty CSV). */
function leafPaths(shape: Shape, prefix = ""): string[] {
  return Object.entries(shape).flatMap(([key, spec]) =>
    typeof spec === "object" ? leafPaths(spec, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** --sort with --limit says what reading every page costs when it is more than this many pages. */
export const SORT_COST_PAGES = 5;

/** How many requests a query will make, as far as can be known before the first answer. */
export function estimateRequests(query: RecordQuery): RequestEstimate {
  // A list's requests: the walk's own units (its chunks, each once per fan-out value).
  const chunks = query.selector ? unitsOf(query, query.selector).length : 1;
  if (query.page !== undefined) return { requests: chunks, exact: true };
  if (query.limit !== undefined && !query.selector)
    return { requests: Math.ceil(query.limit / query.endpoint.pageSize), exact: false };
  // An endpoint that does not page answers each chunk of the list in one request.
  if (query.selector) return { requests: chunks, exact: query.endpoint.paged === false };
  return { requests: undefined, exact: false };
}
