import type { Shape } from "../../api/fields.js";
import {
  firstRequest,
  type Progress,
  type RecordQuery,
  type RecordStreamResult,
  type Selector,
  type SelectorKind,
  streamRecords,
} from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { MAX_SELECTOR_ITEMS } from "../../contract/api.js";
import { DEFAULT_MAX_PAGES } from "../../contract/limits.js";
import { ApiError, CliError, UsageError } from "../../errors.js";
import type { OutputFormat } from "../../flags/formats.js";
import { type Column, columnsForPaths } from "../../output/columns.js";
import { ProgressLine } from "../../output/progress.js";
import { createWriter } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import type { PaymentOptions, RequestEstimate } from "../../payment/session.js";
import type { SortSpec } from "../../query/records.js";
import { chooseColumns, type DataCommandDefinition } from "./definition.js";
import { FieldsSeen } from "./fields-seen.js";
import type { DataOptions } from "./flags.js";
import { expandList } from "./lists.js";
import { chooseFormat, warnTableOnly } from "./output.js";
import { writeStream } from "./partial.js";
import { checkPaths, parseSortFlag, parseWhereFlags, pathListing } from "./path-flags.js";

export const DEFAULT_WATCH_MS = 10_000;

const FLAG_FOR: Record<SelectorKind, string> = { ticker: "--tickers", address: "--addresses", id: "--ids" };
const OPTION_FOR = { ticker: "tickers", address: "addresses", id: "ids" } as const;

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
  spec: DataCommandDefinition,
  opts: DataOptions,
): Promise<ParsedDataOptions> {
  // An endpoint of one chain takes no `chain`: the default chain setting is not sent to it.
  const chain = spec.onlyOn ? undefined : await ctx.settings.get("chain", opts.chain);
  if (spec.chainRequired && chain === undefined) {
    throw new UsageError(
      `${spec.name}: --chain is required (base or solana), or set a default with 'tokenintel config set chain base'`,
    );
  }

  let selector: Selector | undefined;
  for (const [kind, param] of Object.entries(spec.selectors) as Array<[SelectorKind, string]>) {
    const given = opts[OPTION_FOR[kind]];
    if (!given) continue;
    if (selector) {
      const flags = Object.keys(spec.selectors).map((k) => FLAG_FOR[k as SelectorKind]);
      throw new UsageError(`use one of ${flags.join(", ")} at a time`);
    }
    selector = { kind, param, items: await expandList(ctx, FLAG_FOR[kind], given, kind === "ticker") };
  }
  if (!selector && spec.selectorRequired) {
    const flags = Object.keys(spec.selectors).map((k) => FLAG_FOR[k as SelectorKind]);
    throw new UsageError(`${spec.name}: name the tokens with ${flags.join(" or ")}`);
  }
  if (selector?.kind === "ticker" || opts.resolve) {
    const { applyTokenIndex } = await import("./resolve.js");
    const resolve = opts.resolve ? { addressParam: spec.selectors.address } : undefined;
    selector = await applyTokenIndex(ctx, chain, selector, resolve);
  }
  const ecosystem = opts.ecosystem?.trim();
  if (ecosystem === "") throw new UsageError("--ecosystem: empty value");
  const { limit, page, maxPages } = opts;
  if (page !== undefined && selector && selector.items.length > MAX_SELECTOR_ITEMS) {
    throw new UsageError(
      `--page cannot be combined with more than ${MAX_SELECTOR_ITEMS} ${FLAG_FOR[selector.kind].slice(2)} (they are split over several requests)`,
    );
  }
  if (page !== undefined && page > 1 && selector) {
    throw new UsageError(
      `--page ${page}: a list of ${FLAG_FOR[selector.kind].slice(2)} is answered in one page; leave out --page`,
    );
  }
  const format = await chooseFormat(ctx, opts);
  // Fields the records may carry beyond their shape are looked for in them (fields-seen.ts).
  const seen = new FieldsSeen(spec.name);
  const fields = checkPaths(
    "--fields",
    opts.fields === true ? undefined : opts.fields,
    spec.shape,
    spec.name,
    seen,
  );
  const chosen = checkPaths("--columns", opts.columns, spec.shape, spec.name, seen) ?? fields;
  const payment = await paymentOptions(ctx, opts);
  const view = opts.view ?? spec.table.defaultView;
  const layout = spec.table.views[view];
  if (!layout) {
    throw new UsageError(
      `--view: unknown view "${view}" (expected ${Object.keys(spec.table.views).join(", ")})`,
    );
  }
  // --columns picks the table's columns (--fields too, for every format); else the view's own.
  const columns = (records: unknown[]) => {
    if (chosen) {
      const shown = Object.values(spec.table.views).flatMap((v) => [
        ...chooseColumns(v.columns, records),
        ...chooseColumns(v.wide, records),
      ]);
      return columnsForPaths(chosen, shown);
    }
    const base = chooseColumns(layout.columns, records);
    return opts.wide ? [...base, ...chooseColumns(layout.wide, records)] : base;
  };
  const sort = parseSortFlag(opts.sort, spec.shape, spec.name, seen);
  // --watch with another format is refused below; no warning first.
  if (opts.watch === undefined) warnTableOnly(ctx, format, opts);
  const where = parseWhereFlags(opts.where, spec.shape, spec.name, seen);
  const matches = where
    ? await import("../../query/records.js").then(
        ({ matchesAll }) =>
          (record: unknown) =>
            matchesAll(record, where),
      )
    : undefined;
  const filter = seen.looking ? seen.watching(matches) : matches;
  let watchMs: number | undefined;
  let watchStream = false;
  if (opts.watch !== undefined) {
    watchMs = opts.watch === true ? DEFAULT_WATCH_MS : opts.watch;
    // A terminal gets a table redrawn in place; a pipe (or --ndjson) a stream of NDJSON lines.
    const asked = opts.output ?? (opts.json ? "json" : opts.ndjson ? "ndjson" : undefined);
    watchStream = asked === "ndjson" || (!ctx.io.stdoutIsTTY && asked === undefined);
    if (!watchStream && !ctx.io.stdoutIsTTY)
      throw new UsageError(
        `--watch into a pipe writes NDJSON lines; drop ${opts.output ? `--output ${asked}` : `--${asked}`} or use --ndjson`,
      );
    if (!watchStream && asked !== undefined && asked !== "table")
      throw new UsageError(
        `--watch on a terminal shows a table or streams --ndjson; it cannot write ${asked}`,
      );
    if (page !== undefined) throw new UsageError("--watch cannot be combined with --page");
  } else {
    const alone =
      opts.count !== undefined ? "--count" : opts.changes ? "--changes" : opts.diff ? "--diff" : "";
    if (alone) throw new UsageError(`${alone} needs --watch`);
  }
  const window = ctx.settings.concurrency * 2;
  const generation = await ctx.settings.get("api-paths");
  const endpoint =
    generation === "newer" && spec.newerPath ? { ...spec.endpoint, path: spec.newerPath } : spec.endpoint;
  return {
    format,
    fields,
    seen,
    payment,
    columns,
    sort,
    sortLimit: sort ? limit : undefined,
    strict: Boolean(opts.strict),
    watchMs,
    watchCount: opts.count,
    watchChanges: Boolean(opts.changes),
    watchStream,
    watchDiff: Boolean(opts.diff),
    query: {
      endpoint,
      query: [
        ["chain", chain],
        ["ecosystem", ecosystem],
        ...Object.entries(spec.params ?? {}).map(
          ([option, param]) => [param, opts[option as keyof DataOptions]] as [string, string | undefined],
        ),
      ],
      selector,
      rows: spec.rows,
      // The top n by a field is known only once every record is in: sorting reads all pages.
      limit: sort ? undefined : limit,
      filter,
      page,
      maxPages,
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
  spec: DataCommandDefinition,
  opts: DataOptions,
): Promise<void> {
  if (opts.fields === true) {
    // `--fields` alone: the paths it takes, one a line (like `gh ... --json` with no fields).
    await ctx.io.out(pathListing(spec.shape));
    return;
  }
  const parsed = await parseDataOptions(ctx, spec, opts);
  const { query, format, fields, payment } = parsed;
  const client = await ctx.client({
    keyRequired: !spec.endpoint.keyOptional && !payment,
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
    return runWatch(ctx, client, parsed, spec.emptyMessage);
  }
  const writer = createWriter(format, ctx.io, {
    fields,
    columns: parsed.columns,
    emptyMessage: spec.emptyMessage,
    sort: parsed.sort,
    limit: parsed.sortLimit,
    crlf: opts.crlf,
    emptyColumns: leafPaths(spec.shape),
  });
  // Progress on a terminal's stderr, unless ndjson is streaming to that same terminal.
  const progress = new ProgressLine(
    ctx.io,
    ctx.io.stderrIsTTY && (format !== "ndjson" || !ctx.io.stdoutIsTTY),
  );
  let costTold = false;
  let lastProgress: Progress | undefined;
  query.onProgress = (p) => {
    if (!costTold && parsed.sortLimit !== undefined && p.unit === "page" && p.total !== undefined) {
      costTold = true;
      const pages = Math.min(p.total, query.maxPages ?? DEFAULT_MAX_PAGES);
      if (pages > SORT_COST_PAGES) {
        progress.clear();
        ctx.io.info(
          `tokenintel: --sort reads all ${pages} pages to find the top ${parsed.sortLimit} (use --page or a smaller --max-pages to read fewer)`,
        );
      }
    }
    progress.update(p);
    lastProgress = p;
  };
  query.onRepeat = (note) => ctx.io.warn(note);
  const result: RecordStreamResult = { missing: [] };
  // Streamed records are dropped once written: no reason to let the young generation grow.
  if (format === "ndjson" && !parsed.sort) (await import("./heap.js")).keepYoungGenerationSmall();
  // A failure part way writes what was fetched when it is kept (the page ceiling, records paid for).
  const records = streamRecords(client, query, result);
  await writeStream(ctx, parsed.seen.guard(records), writer, () => progress.clear()).catch(
    (error: unknown) => {
      throw nameOtherGeneration(error, spec, query.endpoint.path);
    },
  );
  for (const note of parsed.seen.notes()) ctx.io.warn(note);
  // --page past the last page: an empty answer that says why (the server said how many there are).
  const total = lastProgress?.unit === "page" ? lastProgress.total : undefined;
  if (query.page !== undefined && lastProgress?.records === 0 && total !== undefined && query.page > total)
    ctx.io.warn(
      `page ${query.page} is past the last page: the listing has ${total} page${total === 1 ? "" : "s"}`,
    );
  if (result.missing.length && query.selector) {
    const noun = FLAG_FOR[query.selector.kind].slice(2);
    const shown = result.missing.slice(0, 20).join(", ");
    const more = result.missing.length > 20 ? ` and ${result.missing.length - 20} more` : "";
    const line = `no data for ${result.missing.length} of ${query.selector.items.length} ${noun}: ${shown}${more}`;
    if (parsed.strict) throw new CliError(`${line} (--strict)`);
    ctx.io.warn(line);
  }
}

/**
 * A 404 that says "no route" on one generation of an endpoint's paths names the other (the provider
 * has not said whether the older paths were retired): the path, and the setting that calls it.
 */
function nameOtherGeneration(error: unknown, spec: DataCommandDefinition, path: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 404 || !spec.newerPath) return error;
  if (!/no route/i.test(error.message)) return error;
  const [generation, other] =
    path === spec.newerPath ? ["older", spec.endpoint.path] : ["newer", spec.newerPath];
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
export function estimateRequests(q: RecordQuery): RequestEstimate {
  const chunks = q.selector ? Math.ceil(q.selector.items.length / MAX_SELECTOR_ITEMS) : 1;
  if (q.page !== undefined) return { requests: chunks, exact: true };
  if (q.limit !== undefined && !q.selector)
    return { requests: Math.ceil(q.limit / q.endpoint.pageSize), exact: false };
  // An endpoint that does not page answers each chunk of the list in one request.
  if (q.selector) return { requests: chunks, exact: q.endpoint.paged === false };
  return { requests: undefined, exact: false };
}
