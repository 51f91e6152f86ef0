import type { ApiClient, Query } from "../../api/client.js";
import { serverMessage } from "../../api/server-message.js";
import type { RunContext } from "../../context.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { DEFAULT_MAX_PAGES } from "../../contract/limits.js";
import { ApiError, CliError, InterruptedError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { stringifyJson } from "../../json/exact.js";
import { col } from "../../output/columns.js";
import { createWriter, type OutputFormat, toCsv } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import { expandList } from "../data/lists.js";
import { chooseFormat } from "../data/output.js";
import { readRange } from "./dates.js";
import { MAX_SERIES_DAYS, SeriesDays } from "./days.js";
import type historyCommand from "./index.js";

type HistoryOptions = FlagValues<typeof historyCommand.flags>;

// `tokenintel history`: each token's daily series from /v1/crypto-market-historical,
// one token per request, 1,000 days a page, newest day first on the wire and oldest first here.

const { path: PATH, pageSize: PAGE_DAYS, selectors: SELECTORS } = ENDPOINTS.history;
const DAY_FIELDS = ["date_time", "usd_price", "total_volume", "market_cap"] as const;

export interface HistorySeries {
  token_id: string | null;
  token_symbol: string | null;
  token_address: string | null;
  chain: string;
  /** What the user named it by, for messages. */
  named: string;
  days: Array<Record<string, unknown>>;
  /** The token the server answered for, when it is not the one asked for. */
  other?: string;
  /** Why the series stopped short: its later pages could not be read (printed, then the exit). */
  error?: CliError;
}

interface Selection {
  param: (typeof SELECTORS)[keyof typeof SELECTORS];
  items: string[];
}

async function selection(ctx: RunContext, opts: HistoryOptions): Promise<Selection> {
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
  // The shared list reader: @file and - as every list command reads them (refused in a tool call).
  const flag = {
    [SELECTORS.ticker]: "--tickers",
    [SELECTORS.address]: "--addresses",
    [SELECTORS.id]: "--ids",
  }[param];
  return { param, items: await expandList(ctx, flag, items!, param === SELECTORS.ticker) };
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

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

/** The field of an answer that names its token, for each way of asking. */
const ANSWER_FIELD: Record<Selection["param"], string> = {
  [SELECTORS.ticker]: "token_symbol",
  [SELECTORS.address]: "token_address",
  [SELECTORS.id]: "token_id",
};

/** The token an answer names when it is not the one asked for; undefined when it is (or names none). */
function otherToken(
  data: Record<string, unknown>,
  param: Selection["param"],
  item: string,
): string | undefined {
  const answered = text(data[ANSWER_FIELD[param]]);
  return answered !== null && answered.toLowerCase() !== item.toLowerCase() ? answered : undefined;
}

/** One page's token and days, or undefined when the answer says there is no such token. */
function readPage(
  res: Awaited<ReturnType<ApiClient["request"]>>,
  item: string,
): Record<string, unknown> | undefined {
  const body = res.body as Record<string, unknown> | null;
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new ApiError(`HTTP ${res.status}: unexpected response for ${item} (not a JSON object)`);
  if (body.success === false) {
    const detail = serverMessage(body);
    throw new ApiError(`HTTP ${res.status}: the server reported a failure${detail ? `: ${detail}` : ""}`);
  }
  const data = ("token_day_metrics" in body ? body : body.data) as Record<string, unknown> | null | undefined;
  if (data === null || data === undefined) return undefined;
  if (typeof data !== "object" || !Array.isArray(data.token_day_metrics))
    throw new ApiError(`HTTP ${res.status}: unexpected response for ${item} (no token_day_metrics list)`);
  return data;
}

/** Whether the page is the last one: as its pagination says, else a short page. */
function isLastPage(body: unknown, page: number, count: number): boolean {
  const pagination = ((body as { meta?: Record<string, unknown> } | null)?.meta?.pagination ?? {}) as Record<
    string,
    unknown
  >;
  const pageCount = Number(pagination.pageCount ?? pagination.totalPages ?? Number.NaN);
  return Number.isFinite(pageCount) ? page >= pageCount : count < PAGE_DAYS;
}

/**
 * Walks one token's pages until a short or last page, a page that brings no new day, a series
 * longer than any token's life, or the page ceiling. undefined: no such token.
 */
async function fetchSeries(
  ctx: RunContext,
  client: ApiClient,
  chain: string,
  param: Selection["param"],
  item: string,
  range: { from?: string; to?: string },
  maxPages: number,
  notFound: Map<string, string>,
): Promise<HistorySeries | undefined> {
  const days = new SeriesDays();
  let head: Record<string, unknown> | undefined;
  let other: string | undefined;
  const series = (error?: CliError) => ({
    ...seriesOf(head!, chain, item, days),
    ...(other ? { other } : {}),
    ...(error ? { error } : {}),
  });
  const stop = (why: string) => ctx.io.warn(`history: ${item}: ${why}`);
  try {
    for (let page = 1; ; page++) {
      let res: Awaited<ReturnType<ApiClient["request"]>>;
      try {
        // The run's signal (an MCP call's own when cancelled): no request, and no payment, after it.
        if (ctx.signal.aborted) throw new InterruptedError();
        res = await client.request(PATH, {
          query: historyQuery(chain, param, item, range, page),
          label: `${item} page ${page}`,
          signal: ctx.signal,
        });
      } catch (error) {
        // No such token (the live service answers 404 "token not found"): named with the others
        // missing, and the rest of the run goes on, as the data commands do with a list.
        if (page === 1 && error instanceof ApiError && error.status === 404) {
          notFound.set(item, error.message);
          return undefined;
        }
        // The pages already read (paid for, perhaps) are kept: the run prints them, then fails.
        if (head === undefined || !(error instanceof CliError)) throw error;
        return series(error);
      }
      const data = readPage(res, item);
      if (data === undefined) return page === 1 ? undefined : series();
      head ??= data;
      other ??= otherToken(data, param, item);
      const list = data.token_day_metrics as unknown[];
      const added = days.add(list);
      if (days.full) {
        stop(
          `more than ${MAX_SERIES_DAYS.toLocaleString("en-US")} days (20 years, longer than any token has traded); stopped at page ${page}`,
        );
        break;
      }
      if (isLastPage(res.body, page, list.length) || list.length === 0) break;
      if (added === 0) {
        stop(`page ${page} brought no new day; stopped there`);
        break;
      }
      if (page >= maxPages) {
        stop(`stopped at page ${page}, the page ceiling (raise it with --max-pages)`);
        break;
      }
    }
    return series();
  } finally {
    for (const warning of days.warnings(item)) ctx.io.warn(warning);
  }
}

function seriesOf(
  head: Record<string, unknown>,
  chain: string,
  named: string,
  days: SeriesDays,
): HistorySeries {
  return {
    token_id: text(head.token_id),
    token_symbol: text(head.token_symbol),
    token_address: text(head.token_address),
    chain,
    named,
    days: days.sorted(),
  };
}

export async function runHistory(ctx: RunContext, opts: HistoryOptions): Promise<void> {
  const chain = await ctx.settings.get("chain", opts.chain);
  if (chain === undefined)
    throw new UsageError(
      "history: --chain is required (base or solana), or set one with 'tokenintel config set chain base'",
    );
  const { param, items } = await selection(ctx, opts);
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
  const walk = { chain, param, items, range, maxPages: opts.maxPages ?? DEFAULT_MAX_PAGES };
  const fetched = await fetchAll(ctx, client, walk);
  await writeHistory(ctx, opts, fetched.series, chart ? "chart" : format);
  finish(ctx, fetched, items, Boolean(opts.strict));
}

/** What one run asks for: the chain, the tokens, the days and the page ceiling. */
interface Walk {
  chain: string;
  param: Selection["param"];
  items: string[];
  range: { from?: string; to?: string };
  maxPages: number;
}

/** The series read, the tokens with none, and the failures that stopped a series or a token. */
interface Fetched {
  series: HistorySeries[];
  missing: string[];
  failed: CliError[];
}

/** Every token's series; each token is asked for even when another fails (what was paid for is printed). */
async function fetchAll(ctx: RunContext, client: ApiClient, walk: Walk): Promise<Fetched> {
  const { chain, param, items, range, maxPages } = walk;
  const notFound = new Map<string, string>();
  const settled = await Promise.allSettled(
    items.map((item) => fetchSeries(ctx, client, chain, param, item, range, maxPages, notFound)),
  );
  const failures = settled.flatMap((outcome) =>
    outcome.status === "rejected" ? [outcome.reason as unknown] : [],
  );
  const found = settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : undefined));
  const stopped = found.flatMap((history) => (history?.error ? [history.error] : []));
  const fatal = failures.find((failure) => !(failure instanceof CliError));
  if (fatal) throw fatal;
  const failed = [...failures, ...stopped] as CliError[];
  const missing = items.filter((_, i) => settled[i]!.status === "fulfilled" && found[i] === undefined);
  const series = found.filter((history): history is HistorySeries => history !== undefined);
  if (failed.length && series.length === 0) throw failed[0];
  // Each named, with what the server said when it said something (a 404's message).
  const named = missing.map((item) => (notFound.has(item) ? `${item} (${notFound.get(item)})` : item));
  if (missing.length) ctx.io.warn(`no history on ${chain} for ${named.join(", ")}`);
  for (const history of series.filter((history) => history.other !== undefined))
    ctx.io.warn(`history: asked for ${history.named}, the server answered for ${history.other}`);
  return { series, missing, failed };
}

/** The series as a chart on a terminal, else as JSON, NDJSON, CSV or a table of days. */
async function writeHistory(
  ctx: RunContext,
  opts: HistoryOptions,
  series: HistorySeries[],
  format: OutputFormat | "chart",
): Promise<void> {
  if (format === "chart") {
    const { renderCharts } = await import("./render.js");
    await ctx.io.out(
      renderCharts(series, { ...opts, columns: ctx.io.columns, rows: ctx.io.rows, color: ctx.io.color }),
    );
  } else if (format === "json") {
    const shown = series.map(({ named: _, error: __, other: ___, ...history }) => history);
    await ctx.io.outJson(`${stringifyJson(shown, 2)}\n`);
  } else {
    const rows = series.flatMap((history) =>
      history.days.map((day) => ({
        token_id: history.token_id,
        token_symbol: history.token_symbol,
        ...pick(day),
      })),
    );
    if (format === "ndjson")
      await ctx.io.outJson(rows.map((row) => `${stringifyJson(row)}\n`).join(""), true);
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
}

/** The run's end once the series are printed: the first failure, else --strict's refusals. */
function finish(
  ctx: RunContext,
  { series, missing, failed }: Fetched,
  items: string[],
  strict: boolean,
): void {
  if (failed.length) {
    for (const history of series.filter((history) => history.error))
      ctx.io.warn(
        `history: ${history.named} is printed from ${String(history.days[0]?.date_time ?? "?")} on; the days before it were not read`,
      );
    throw failed[0];
  }
  const others = series.filter((history) => history.other !== undefined);
  if (missing.length && strict)
    throw new CliError(`no history for ${missing.length} of ${items.length} tokens: ${missing.join(", ")}`);
  if (others.length && strict)
    throw new CliError(
      `the server answered for another token than asked for ${others.length} of ${items.length}: ${others.map((history) => history.named).join(", ")}`,
    );
}

function pick(day: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(DAY_FIELDS.map((field) => [field, day[field] ?? null]));
}

const DAY_COLUMNS = [
  col("TOKEN", "token_symbol", "text", { max: 12 }),
  col("DATE", "date_time", "text"),
  col("PRICE", "usd_price", "price"),
  col("VOLUME", "total_volume", "usd"),
  col("MCAP", "market_cap", "usd"),
];
