import { PageCeilingError } from "../../api/pager.js";
import {
  firstRequest,
  type RecordQuery,
  type RecordStreamResult,
  type Selector,
  type SelectorKind,
  streamRecords,
} from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { type Column, columnForPath } from "../../output/columns.js";
import type { OutputFormat } from "../../output/formats.js";
import { ProgressLine } from "../../output/progress.js";
import type { SortSpec } from "../../output/sort.js";
import { createWriter } from "../../output/writers.js";
import { parsePaymentFlags } from "../../payment/options.js";
import type { PaymentOptions, RequestEstimate } from "../../payment/session.js";
import { MAX_SELECTOR_ITEMS } from "../../spec/api.js";
import type { DataOptions } from "./flags.js";
import { chooseFormat } from "./output.js";
import { checkPaths, parseSortFlag } from "./paths.js";
import { chooseColumns, type DataCommandSpec } from "./spec.js";

export const DEFAULT_WATCH_MS = 10_000;

const FLAG_FOR: Record<SelectorKind, string> = { ticker: "--tickers", address: "--addresses", id: "--ids" };
const OPTION_FOR = { ticker: "tickers", address: "addresses", id: "ids" } as const;

export interface ParsedDataOptions {
  query: RecordQuery;
  format: OutputFormat;
  fields: string[] | undefined;
  payment: PaymentOptions | undefined;
  columns: (records: unknown[]) => Column[];
  sort: SortSpec | undefined;
  /** --watch: milliseconds between refreshes. */
  watchMs: number | undefined;
}

/** Checks what the flags say together, before any request; the result is all a run needs. */
export async function parseDataOptions(
  ctx: RunContext,
  spec: DataCommandSpec,
  opts: DataOptions,
): Promise<ParsedDataOptions> {
  const { chainSchema } = await import("../../flags/values.js");
  const chain = await ctx.settings.get("chain", async () => chainSchema, opts.chain);
  if (spec.chainRequired && chain === undefined) {
    throw new UsageError(
      `${spec.name}: --chain is required (base or solana), or set a default with 'tokenintel config set chain base'`,
    );
  }

  let selector: Selector | undefined;
  for (const [kind, param] of Object.entries(spec.selectors) as Array<[SelectorKind, string]>) {
    const items = opts[OPTION_FOR[kind]];
    if (!items) continue;
    if (selector) {
      const flags = Object.keys(spec.selectors).map((k) => FLAG_FOR[k as SelectorKind]);
      throw new UsageError(`use one of ${flags.join(", ")} at a time`);
    }
    selector = { kind, param, items };
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
  const format = await chooseFormat(ctx, opts);
  const fields = checkPaths("--fields", opts.fields, spec.shape, spec.name);
  const chosen = checkPaths("--columns", opts.columns, spec.shape, spec.name) ?? fields;
  const payment = spec.endpoint.keyOptional ? parsePaymentFlags(ctx.io, opts) : undefined;
  const view = opts.view ?? spec.table.defaultView;
  const layout = spec.table.views[view];
  if (!layout) {
    throw new UsageError(
      `--view: unknown view "${view}" (expected ${Object.keys(spec.table.views).join(", ")})`,
    );
  }
  // --columns picks the table's columns (--fields too, for every format); else the view's own.
  const columns = (records: unknown[]) => {
    if (chosen) return chosen.map(columnForPath);
    const base = chooseColumns(layout.columns, records);
    return opts.wide ? [...base, ...chooseColumns(layout.wide, records)] : base;
  };
  const sort = parseSortFlag(opts.sort, spec.shape, spec.name);
  let watchMs: number | undefined;
  if (opts.watch !== undefined) {
    watchMs = opts.watch === true ? DEFAULT_WATCH_MS : opts.watch;
    if (!ctx.io.stdoutIsTTY)
      throw new UsageError("--watch redraws a terminal; for pipes and cron, run the command on a schedule");
    if (format !== "table")
      throw new UsageError("--watch shows a table; it cannot be combined with --output/--json/--ndjson");
    if (page !== undefined) throw new UsageError("--watch cannot be combined with --page");
  }
  const window = ctx.settings.concurrency * 2;
  return {
    format,
    fields,
    payment,
    columns,
    sort,
    watchMs,
    query: {
      endpoint: spec.endpoint,
      query: [
        ["chain", chain],
        ["ecosystem", ecosystem],
      ],
      selector,
      limit,
      page,
      maxPages,
      window,
      // Requests past the end cost nothing with a key, but each one is paid for without one.
      speculate: payment ? 1 : ctx.settings.concurrency,
    },
  };
}

/** flags → parsed options → requests (pager and chunker over the client) → records → a writer. */
export async function runDataCommand(
  ctx: RunContext,
  spec: DataCommandSpec,
  opts: DataOptions,
): Promise<void> {
  const parsed = await parseDataOptions(ctx, spec, opts);
  const { query, format, fields, payment } = parsed;
  const client = await ctx.client({
    keyRequired: !spec.endpoint.keyOptional,
    payment,
    estimate: estimateRequests(query),
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
  });
  // Progress on a terminal's stderr, unless ndjson is streaming to that same terminal.
  const progress = new ProgressLine(
    ctx.io,
    ctx.io.stderrIsTTY && (format !== "ndjson" || !ctx.io.stdoutIsTTY),
  );
  query.onProgress = (p) => progress.update(p);
  query.onRepeat = (note) => ctx.io.warn(note);
  const result: RecordStreamResult = { missing: [] };
  let ceiling: PageCeilingError | undefined;
  try {
    for await (const batch of streamRecords(client, query, result)) await writer.write(batch);
  } catch (error) {
    // The page ceiling ends the walk, not the output: what was fetched is written, then the run fails.
    if (!(error instanceof PageCeilingError)) throw error;
    ceiling = error;
  } finally {
    progress.clear();
  }
  await writer.end();
  if (ceiling) throw ceiling;
  if (result.missing.length && query.selector) {
    const noun = FLAG_FOR[query.selector.kind].slice(2);
    const shown = result.missing.slice(0, 20).join(", ");
    const more = result.missing.length > 20 ? ` and ${result.missing.length - 20} more` : "";
    ctx.io.warn(
      `no data for ${result.missing.length} of ${query.selector.items.length} ${noun}: ${shown}${more}`,
    );
  }
}

/** How many requests a query will make, as far as can be known before the first answer. */
export function estimateRequests(q: RecordQuery): RequestEstimate {
  const chunks = q.selector ? Math.ceil(q.selector.items.length / MAX_SELECTOR_ITEMS) : 1;
  if (q.page !== undefined) return { requests: chunks, exact: true };
  if (q.limit !== undefined && !q.selector)
    return { requests: Math.ceil(q.limit / q.endpoint.pageSize), exact: false };
  if (q.selector) return { requests: chunks, exact: false };
  return { requests: undefined, exact: false };
}
