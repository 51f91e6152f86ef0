import type { Shape } from "../api/fields.js";
import { type Endpoint, PageCeilingError } from "../api/pager.js";
import type { PaymentOptions, RequestEstimate } from "../api/payment.js";
import {
  MAX_SELECTOR_ITEMS,
  type RecordQuery,
  type RecordStreamResult,
  type Selector,
  type SelectorKind,
  streamRecords,
} from "../api/records.js";
import type { Context } from "../context.js";
import { UsageError } from "../errors.js";
import { type Column, columnForPath } from "../output/columns.js";
import { ProgressLine } from "../output/progress.js";
import { parseSort, type SortSpec } from "../output/sort.js";
import { createWriter, type OutputFormat } from "../output/writers.js";
import {
  chainSchema,
  durationSchema,
  outputSchema,
  parseFields,
  parseFlag,
  parseList,
  positiveInt,
} from "./options.js";
import { parsePaymentFlags, type RawPaymentOptions } from "./payment-flags.js";

/** The raw options commander hands to a data command. */
export interface RawDataOptions extends RawPaymentOptions {
  chain?: string;
  tickers?: string[];
  addresses?: string[];
  ids?: string[];
  ecosystem?: string;
  limit?: string;
  page?: string;
  maxPages?: string;
  output?: string;
  json?: boolean;
  ndjson?: boolean;
  fields?: string[];
  columns?: string[];
  view?: string;
  wide?: boolean;
  sort?: string;
  watch?: string | boolean;
}

/** A command's table: named column sets (views), and for TA a grid built from what was sent. */
export interface TableSpec {
  views: Record<string, TableLayout>;
  defaultView: string;
  grid?: (records: unknown[]) => Column[];
}

export interface DataCommandSpec {
  name: string;
  endpoint: Endpoint;
  shape: Shape;
  table: TableSpec;
  /** Which list flags the command takes, and the query parameter each is sent as. */
  selectors: Partial<Record<SelectorKind, string>>;
  chainRequired: boolean;
  emptyMessage: string;
}

export interface TableLayout {
  columns: Column[];
  /** Added by --wide. */
  wide: Column[];
}

export const DEFAULT_WATCH_MS = 10_000;

const FLAG_FOR: Record<SelectorKind, string> = { ticker: "--tickers", address: "--addresses", id: "--ids" };
const RAW_FOR: Record<SelectorKind, keyof RawDataOptions> = {
  ticker: "tickers",
  address: "addresses",
  id: "ids",
};

/** Picks the output format: --output, then --json/--ndjson, then config, then table on a terminal. */
export async function resolveOutput(
  ctx: Context,
  raw: Pick<RawDataOptions, "output" | "json" | "ndjson">,
): Promise<OutputFormat> {
  const chosen = [
    raw.output && parseFlag("--output", outputSchema, raw.output),
    raw.json && "json",
    raw.ndjson && "ndjson",
  ].filter(Boolean) as OutputFormat[];
  if (new Set(chosen).size > 1)
    throw new UsageError(`conflicting output flags (${chosen.join(" and ")}); choose one`);
  if (chosen[0]) return chosen[0];
  return (await ctx.outputDefault()) ?? (ctx.io.stdoutIsTTY ? "table" : "json");
}

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

/** Checks every flag before any request; the result is all a run needs. */
export async function parseDataOptions(
  ctx: Context,
  spec: DataCommandSpec,
  raw: RawDataOptions,
): Promise<ParsedDataOptions> {
  const chainValue = raw.chain ?? ctx.defaultChain();
  if (spec.chainRequired && chainValue === undefined) {
    throw new UsageError(
      `${spec.name}: --chain is required (base or solana), or set a default with 'tokenintel config set chain base'`,
    );
  }
  const chain = chainValue === undefined ? undefined : parseFlag("--chain", chainSchema, chainValue);

  let selector: Selector | undefined;
  for (const [kind, param] of Object.entries(spec.selectors) as Array<[SelectorKind, string]>) {
    const items = parseList(FLAG_FOR[kind], raw[RAW_FOR[kind]] as string[] | undefined);
    if (!items) continue;
    if (selector)
      throw new UsageError(
        `use one of ${Object.keys(spec.selectors)
          .map((k) => FLAG_FOR[k as SelectorKind])
          .join(", ")} at a time`,
      );
    selector = { kind, param, items };
  }
  const ecosystem = raw.ecosystem === undefined ? undefined : raw.ecosystem.trim();
  if (ecosystem === "") throw new UsageError("--ecosystem: empty value");

  const limit =
    raw.limit === undefined ? undefined : parseFlag("--limit", positiveInt("of 1 or more"), raw.limit);
  const page =
    raw.page === undefined ? undefined : parseFlag("--page", positiveInt("of 1 or more"), raw.page);
  const maxPages =
    raw.maxPages === undefined
      ? undefined
      : parseFlag("--max-pages", positiveInt("of 1 or more"), raw.maxPages);
  if (page !== undefined && selector && selector.items.length > MAX_SELECTOR_ITEMS) {
    throw new UsageError(
      `--page cannot be combined with more than ${MAX_SELECTOR_ITEMS} ${FLAG_FOR[selector.kind].slice(2)} (they are split over several requests)`,
    );
  }
  const format = await resolveOutput(ctx, raw);
  const fields = parseFields(raw.fields, spec.shape, spec.name);
  const chosen = parseFields(raw.columns, spec.shape, spec.name, "--columns") ?? fields;
  const payment = spec.endpoint.keyOptional ? parsePaymentFlags(ctx, raw) : undefined;
  const view = raw.view ?? spec.table.defaultView;
  const layout = spec.table.views[view];
  if (!layout) {
    throw new UsageError(
      `--view: unknown view "${view}" (expected ${Object.keys(spec.table.views).join(", ")})`,
    );
  }
  const wide = Boolean(raw.wide);
  const grid = spec.table.grid;
  // --columns picks the table's columns (--fields too, for every format); else the view's own.
  const columns = (records: unknown[]) => {
    if (chosen) return chosen.map(columnForPath);
    const base = grid ? grid(records) : layout.columns;
    return wide ? [...base, ...layout.wide] : base;
  };
  const sort = parseSort(raw.sort, spec.shape, spec.name);
  let watchMs: number | undefined;
  if (raw.watch !== undefined && raw.watch !== false) {
    watchMs = raw.watch === true ? DEFAULT_WATCH_MS : parseFlag("--watch", durationSchema, raw.watch);
    if (!ctx.io.stdoutIsTTY)
      throw new UsageError("--watch redraws a terminal; for pipes and cron, run the command on a schedule");
    if (format !== "table")
      throw new UsageError("--watch shows a table; it cannot be combined with --output/--json/--ndjson");
    if (page !== undefined) throw new UsageError("--watch cannot be combined with --page");
  }
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
      window: 0, // set from the client's concurrency below
    },
  };
}

/** flags → parsed options → requests (pager and chunker over the client) → records → a writer. */
export async function runDataCommand(
  ctx: Context,
  spec: DataCommandSpec,
  raw: RawDataOptions,
): Promise<void> {
  const parsed = await parseDataOptions(ctx, spec, raw);
  const { query, format, fields, payment } = parsed;
  const client = await ctx.client({
    keyRequired: !spec.endpoint.keyOptional,
    payment,
    estimate: estimateRequests(query),
  });
  query.window = client.limiter.max * 2;
  // Requests past the end cost nothing with a key, but each one is paid for without one.
  query.speculate = payment ? 1 : client.limiter.max;
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
