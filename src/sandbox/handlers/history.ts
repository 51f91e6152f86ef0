import { createHash } from "node:crypto";
import { ENDPOINTS } from "../../contract/endpoints.js";
import type { TokenBase } from "../data.js";
import { HttpError } from "../http.js";
import { get, type Handler, keyOrPayment, pageOf, paginationMeta, type SandboxContext } from "./context.js";

/**
 * How far back the sandbox's series go: three years and a little, so that a whole history takes a
 * second 1,000-day page (two years would fit in one) and paging is exercised.
 */
export const HISTORY_DAYS = 1100;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A number in [0, 1) from a token and a day, the same every run. */
function noise(token: TokenBase, day: number): number {
  return createHash("sha256").update(`${token.id}:${day}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * One token's daily series, newest day first, ending today (UTC) at its market price: a seeded walk
 * backwards from today's figures. Every eleventh token misses a day (day 20 back), as a real series
 * may: the gap is a gap, never a zero.
 */
export function historySeries(
  ctx: SandboxContext,
  token: TokenBase,
  today = Date.now(),
): Record<string, string>[] {
  const m = ctx.data.marketRecord(token).token_metrics as Record<string, string>;
  const price = Number(m.usd_price);
  const volume = Number(m.volume_24h);
  const supply = Number(m.mcap) / price;
  const decimals = Math.max(2, 4 - Math.floor(Math.log10(price)));
  const start = Math.floor(today / DAY_MS) * DAY_MS;
  const days: Record<string, string>[] = [];
  let p = price;
  for (let back = 0; back < HISTORY_DAYS; back++) {
    if (back > 0) p = p / (1 + (noise(token, back) - 0.5) * 0.08);
    if (token.index % 11 === 5 && back === 20) continue;
    const v = volume * (0.5 + noise(token, back + 10_000));
    days.push({
      date_time: isoDay(start - back * DAY_MS),
      // Today's price is the market's to the digit; earlier days at the market price's precision.
      usd_price: back === 0 ? m.usd_price! : p.toFixed(Math.min(decimals, 18)),
      total_volume: back === 0 ? m.volume_24h! : v.toFixed(2),
      market_cap: back === 0 ? m.mcap! : (p * supply).toFixed(2),
    });
  }
  return days;
}

/**
 * GET /v1/crypto-market-historical (docs/api-notes.md, "Records"): one token's series by
 * token_id, token_ticker or token_address, newest day first, 1,000 days a page, within
 * start_date..end_date when given.
 */
export const history: Handler = get((req, ctx) => {
  const unpaid = keyOrPayment(req, ctx);
  if (unpaid) return unpaid;
  const { selectors } = ENDPOINTS.history;
  const chain = req.query.chain(ENDPOINTS.history.chainRequired)!;
  const id = req.query.param(selectors.id);
  const ticker = req.query.param(selectors.ticker);
  const address = req.query.param(selectors.address);
  const given = [id, ticker, address].filter((value) => value !== undefined);
  if (given.length !== 1)
    throw new HttpError(
      400,
      `one of ${selectors.id}, ${selectors.ticker} or ${selectors.address} is required`,
    );
  const [token] = id
    ? ctx.data.findByIds(chain, [id])
    : ticker
      ? ctx.data.findBySymbols(chain, [ticker])
      : ctx.data.findByAddresses(chain, [address!]);
  if (!token) return { body: { success: true, data: null } };
  const from = req.query.param("start_date");
  const to = req.query.param("end_date");
  for (const [name, value] of [
    ["start_date", from],
    ["end_date", to],
  ] as const)
    if (value !== undefined && !DATE.test(value)) throw new HttpError(400, `${name} must be YYYY-MM-DD`);
  const days = historySeries(ctx, token).filter(
    (day) => (from === undefined || day.date_time! >= from) && (to === undefined || day.date_time! <= to),
  );
  const page = pageOf(req, ctx, days, ENDPOINTS.history.pageSize);
  return {
    body: {
      success: true,
      data: {
        token_id: token.id,
        token_symbol: token.symbol,
        token_address: token.address,
        token_day_metrics: page.items,
      },
      ...paginationMeta(ctx, page.pagination),
    },
  };
});
