import type { ApiClient, Query } from "../../api/client.js";
import { DEFAULT_MAX_PAGES } from "../../api/limits.js";
import { serverMessage } from "../../api/server-message.js";
import type { RunContext } from "../../context.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { ApiError, CliError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { stringifyJson } from "../../json/exact.js";
import { col } from "../../output/columns.js";
import { formatCompact, formatPercent, formatPrice } from "../../output/format.js";
import { createWriter, toCsv } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import { chooseFormat } from "../data/output.js";
import { readRange } from "./dates.js";
import type historyCommand from "./index.js";

type HistoryOptions = FlagValues<typeof historyCommand.flags>;

// `tokenintel history`: each token's daily series from /v1/crypto-market-historical (live-notes),
// one token per request, 1,000 days a page, newest day first on the wire and oldest first here.

const { path: PATH, pageSize: PAGE_DAYS, selectors: SELECTORS } = ENDPOINTS.history;
const DAY_FIELDS = ["date_time", "usd_price", "total_volume", "market_cap"] as const;
const METRIC_FIELD = { price: "usd_price", volume: "total_volume", mcap: "market_cap" } as const;

export interface HistorySeries {
  token_id: string | null;
  token_symbol: string | null;
  token_address: string | null;
  chain: string;
  /** What the user named it by, for messages. */
  named: string;
  days: Array<Record<string, unknown>>;
  /** Why the series stopped short: its later pages could not be read (printed, then the exit). */
  error?: CliError;
}

interface Selection {
  param: (typeof SELECTORS)[keyof typeof SELECTORS];
  items: string[];
}

function selection(opts: HistoryOptions): Selection {
  const given = (
    [
      [SELECTORS.ticker, opts.tickers],
      [SELECTORS.address, opts.addresses],
      [SELECTORS.id, opts.ids],
    ] as const
  ).filter(([, items]) => items?.length);
  if (given.length === 0)
    throw new UsageError("history: name the tokens with --tickers, --addresses or --ids");
  if (given.length > 1) throw new UsageError("history: use one of --tickers, --addresses, --ids at a time");
  const [param, items] = given[0]!;
  return { param, items: [...new Set(items!)] };
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

function historyQuery(
  chain: string,
  param: Selection["param"],
  item: string,
  range: { from?: string; to?: string },
  page: number,
): Query {
  return [
    ["chain", chain],
    [param, item],
    ["start_date", range.from],
    ["end_date", range.to],
    ["page", page],
  ];
}

/** Walks one token's pages until a short or last page, or the ceiling. undefined: no such token. */
async function fetchSeries(
  ctx: RunContext,
  client: ApiClient,
  chain: string,
  param: Selection["param"],
  item: string,
  range: { from?: string; to?: string },
  maxPages: number,
): Promise<HistorySeries | undefined> {
  const byDate = new Map<string, Record<string, unknown>>();
  let head: Record<string, unknown> | undefined;
  for (let page = 1; ; page++) {
    let res: Awaited<ReturnType<ApiClient["request"]>>;
    try {
      res = await client.request(PATH, {
        query: historyQuery(chain, param, item, range, page),
        label: `${item} page ${page}`,
      });
    } catch (error) {
      // The pages already read (paid for, perhaps) are kept: the run prints them, then fails.
      if (head === undefined || !(error instanceof CliError)) throw error;
      return { ...seriesOf(head, chain, item, byDate), error };
    }
    const body = res.body as Record<string, unknown> | null;
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw new ApiError(`HTTP ${res.status}: unexpected response for ${item} (not a JSON object)`);
    if (body.success === false) {
      const detail = serverMessage(body);
      throw new ApiError(`HTTP ${res.status}: the server reported a failure${detail ? `: ${detail}` : ""}`);
    }
    const data = ("token_day_metrics" in body ? body : body.data) as
      | Record<string, unknown>
      | null
      | undefined;
    if (data === null || data === undefined)
      return page === 1 ? undefined : seriesOf(head!, chain, item, byDate);
    if (typeof data !== "object" || !Array.isArray(data.token_day_metrics))
      throw new ApiError(`HTTP ${res.status}: unexpected response for ${item} (no token_day_metrics list)`);
    head ??= data;
    const days = data.token_day_metrics as unknown[];
    for (const day of days) {
      const date = text((day as Record<string, unknown> | null)?.date_time);
      // A day without a readable date cannot be placed: left out, as a gap.
      if (date && !byDate.has(date)) byDate.set(date, day as Record<string, unknown>);
    }
    const pagination = ((body.meta as Record<string, unknown> | undefined)?.pagination ?? {}) as Record<
      string,
      unknown
    >;
    const pageCount = Number(pagination.pageCount ?? pagination.totalPages ?? Number.NaN);
    const last = Number.isFinite(pageCount) ? page >= pageCount : days.length < PAGE_DAYS;
    if (last || days.length === 0) break;
    if (page >= maxPages) {
      ctx.io.warn(`history: stopped ${item} at page ${page}, the page ceiling (raise it with --max-pages)`);
      break;
    }
  }
  return seriesOf(head ?? {}, chain, item, byDate);
}

function seriesOf(
  head: Record<string, unknown>,
  chain: string,
  named: string,
  byDate: Map<string, Record<string, unknown>>,
): HistorySeries {
  const days = [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
  return {
    token_id: text(head.token_id),
    token_symbol: text(head.token_symbol),
    token_address: text(head.token_address),
    chain,
    named,
    days,
  };
}

export async function runHistory(ctx: RunContext, opts: HistoryOptions): Promise<void> {
  const chain = await ctx.settings.get("chain", opts.chain);
  if (chain === undefined)
    throw new UsageError(
      "history: --chain is required (base or solana), or set one with 'tokenintel config set chain base'",
    );
  const { param, items } = selection(opts);
  const range = readRange(opts.since, opts.until);
  const format = await chooseFormat(ctx, opts);
  const chart = format === "table" && opts.output !== "table";
  if (!chart && (opts.normalize || opts.height !== undefined || opts.metric !== undefined))
    ctx.io.warn("--metric, --normalize and --height shape the chart; not applied to this output");
  const payment = await paymentOptions(ctx, opts);
  const client = await ctx.client({
    keyRequired: !payment,
    payment,
    estimate: { requests: items.length, exact: false },
  });
  if (payment?.dryRun) {
    const { planPayment } = await import("../../payment/dry-run.js");
    const [first] = items;
    const query = historyQuery(chain, param, first!, range, 1);
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, { path: PATH, query })}`);
    return;
  }
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  // Every token is asked for even when one fails (a cap, a refusal): what was paid for is printed.
  const settled = await Promise.allSettled(
    items.map((item) => fetchSeries(ctx, client, chain, param, item, range, maxPages)),
  );
  const failures = settled.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  const found = settled.map((r) => (r.status === "fulfilled" ? r.value : undefined));
  const stopped = found.flatMap((s) => (s?.error ? [s.error] : []));
  const fatal = failures.find((e) => !(e instanceof CliError));
  if (fatal) throw fatal;
  const failed = [...failures, ...stopped] as CliError[];
  const missing = items.filter((_, i) => settled[i]!.status === "fulfilled" && found[i] === undefined);
  const series = found.filter((s): s is HistorySeries => s !== undefined);
  if (failed.length && series.length === 0) throw failed[0];
  if (missing.length) ctx.io.warn(`no history on ${chain} for ${missing.join(", ")}`);

  if (chart) {
    const { renderCharts } = await import("./render.js");
    await ctx.io.out(
      renderCharts(series, { ...opts, columns: ctx.io.columns, rows: ctx.io.rows, color: ctx.io.color }),
    );
  } else if (format === "json") {
    const shown = series.map(({ named: _, error: __, ...s }) => s);
    await ctx.io.outJson(`${stringifyJson(shown, 2)}\n`);
  } else {
    const rows = series.flatMap((s) =>
      s.days.map((d) => ({ token_id: s.token_id, token_symbol: s.token_symbol, ...pick(d) })),
    );
    if (format === "ndjson") await ctx.io.outJson(rows.map((r) => `${stringifyJson(r)}\n`).join(""), true);
    else if (format === "csv")
      await ctx.io.outServerText(
        toCsv(rows, ["token_id", "token_symbol", ...DAY_FIELDS], opts.crlf ? "\r\n" : "\n"),
      );
    else {
      const writer = createWriter("table", ctx.io, { columns: () => DAY_COLUMNS, emptyMessage: "No days." });
      await writer.write(rows);
      await writer.end();
    }
  }
  if (failed.length) {
    for (const s of series.filter((s) => s.error))
      ctx.io.warn(
        `history: ${s.named} is printed from ${String(s.days[0]?.date_time ?? "?")} on; the days before it were not read`,
      );
    throw failed[0];
  }
  if (missing.length && opts.strict)
    throw new CliError(`no history for ${missing.length} of ${items.length} tokens: ${missing.join(", ")}`);
}

function pick(day: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(DAY_FIELDS.map((f) => [f, day[f] ?? null]));
}

const DAY_COLUMNS = [
  col("TOKEN", "token_symbol", "text", { max: 12, min: 4 }),
  col("DATE", "date_time", "text"),
  col("PRICE", "usd_price", "price"),
  col("VOLUME", "total_volume", "usd"),
  col("MCAP", "market_cap", "usd"),
];

/** The metric's field and how its values read on an axis. */
export function metricOf(metric: "price" | "volume" | "mcap" | undefined) {
  const m = metric ?? "price";
  return {
    name: m,
    field: METRIC_FIELD[m],
    label: (x: number) => (m === "price" ? `$${formatPrice(String(x))}` : formatCompact(String(x), "$")),
  };
}

export const percentLabel = (x: number) => formatPercent(x.toFixed(2));
