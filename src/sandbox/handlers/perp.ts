import { ENDPOINTS } from "../../contract/endpoints.js";
import { HttpError } from "../http.js";
import { hash32, rng } from "../tokens.js";
import { type Handler, paid, type SandboxContext } from "./context.js";

// Perp intelligence (docs/api-notes.md, "Perp intelligence"): one market of one venue a request, at
// /v1/perp-intelligence with `dex` (required, one of ten) and at Hyperliquid's older
// /v1/hl-perp-trade. Not every venue lists every market: some list tokenized equities or
// commodities, some do not list the small coins. The figures are drawn from the venue and the
// ticker alone (and, with --live, move by small steps), and hold together as a book does: the mark
// near the mid, depth on both sides, the imbalance (bid − ask) / (bid + ask) of that depth, funding
// a small fraction per interval.

const { fanOut: VENUES, selectors, path: OLDER_PATH } = ENDPOINTS.perp;
type Venue = (typeof VENUES.values)[number];
type Kind = "major" | "small" | "equity" | "commodity";

/** The markets the sandbox knows: a reference price and the kind of market. */
const MARKETS: Readonly<Record<string, { price: number; kind: Kind }>> = {
  BTC: { price: 104_250, kind: "major" },
  ETH: { price: 4_248, kind: "major" },
  SOL: { price: 186.4, kind: "major" },
  HYPE: { price: 41.7, kind: "major" },
  DOGE: { price: 0.2134, kind: "major" },
  LINK: { price: 22.9, kind: "major" },
  FARTCOIN: { price: 1.084, kind: "small" },
  kPEPE: { price: 0.01121, kind: "small" },
  TSLA: { price: 412.5, kind: "equity" },
  NVDA: { price: 181.2, kind: "equity" },
  XAU: { price: 3_352, kind: "commodity" },
  XAG: { price: 38.4, kind: "commodity" },
};

/** What each venue lists (the majors everywhere), and what it quotes in. */
const VENUE_LISTS: Readonly<Record<Venue, { kinds: readonly Kind[]; quote: string }>> = {
  hyperliquid: { kinds: ["major", "small"], quote: "USDC" },
  nado: { kinds: ["major"], quote: "USDT0" },
  paradex: { kinds: ["major", "small"], quote: "USD" },
  pacifica: { kinds: ["major", "small"], quote: "USDC" },
  avantis: { kinds: ["major", "equity", "commodity"], quote: "USD" },
  lighter: { kinds: ["major", "small", "equity", "commodity"], quote: "USDC" },
  aster: { kinds: ["major", "small", "equity"], quote: "USDT" },
  grvt: { kinds: ["major", "commodity"], quote: "USDT" },
  variational: { kinds: ["major", "small"], quote: "USDC" },
  extended: { kinds: ["major", "equity", "commodity"], quote: "USD" },
};

/** A market's ticker as the sandbox spells it, found in any case ("eth", "KPEPE"). */
function marketOf(ticker: string): string | undefined {
  const wanted = ticker.toLowerCase();
  return Object.keys(MARKETS).find((market) => market.toLowerCase() === wanted);
}

/** A value to `digits` significant digits, as a JSON number. */
function sig(value: number, digits = 6): number {
  return Number(value.toPrecision(digits));
}

const round = (value: number, places: number) => Number(value.toFixed(places));

/** Figures in [low, high) drawn in order from one generator. */
const between = (random: () => number) => (low: number, high: number) => low + random() * (high - low);

/** Prices of one market on one venue: mid, mark, spread, the day's change, swing and ATR. */
function prices(ctx: SandboxContext, venue: Venue, ticker: string, random: () => number) {
  const pick = between(random);
  const mid = sig(MARKETS[ticker]!.price * pick(0.997, 1.003) * ctx.data.drift(`perp:${venue}:${ticker}`));
  const spreadPercent = sig(pick(0.0005, 0.03), 4);
  const mark = sig(mid * pick(0.9998, 1.0002));
  const change = pick(-0.06, 0.06);
  const atr = (times: number) => sig(mark * pick(0.001, 0.004) * times, 5);
  const atrs = { "15m": atr(1), "1h": atr(2), "4h": atr(4) };
  return {
    mid,
    mark,
    spreadPercent,
    spread: sig((mid * spreadPercent) / 100, 4),
    changePercent: round(change * 100, 4),
    change: sig(mark - mark / (1 + change), 6),
    swing: { high_4h: sig(mark * pick(1.002, 1.03)), low_4h: sig(mark * pick(0.97, 0.998)) },
    atr: {
      ...atrs,
      percentage_15m: round((atrs["15m"] / mark) * 100, 4),
      percentage_1h: round((atrs["1h"] / mark) * 100, 4),
      percentage_4h: round((atrs["4h"] / mark) * 100, 4),
    },
  };
}

/** The book within 0.25 % of mid, open interest and funding. */
function book(kind: Kind, random: () => number) {
  const pick = between(random);
  const scale = kind === "major" ? 8_000_000 : kind === "small" ? 400_000 : 1_500_000;
  const bid = round(scale * pick(0.4, 1.6), 2);
  const ask = round(scale * pick(0.4, 1.6), 2);
  const funding = round(pick(-0.00002, 0.00005), 8);
  return {
    bid,
    ask,
    total: round(bid + ask, 2),
    imbalance: round((bid - ask) / (bid + ask), 6),
    openInterest: {
      usd_value: round((bid + ask) * pick(15, 90), 2),
      change_percentage_1h: round(pick(-2, 2), 4),
      change_percentage_6h: round(pick(-6, 6), 4),
      change_percentage_24h: round(pick(-15, 15), 4),
    },
    funding: {
      current_value: funding,
      next: round(funding + pick(-0.000005, 0.000005), 8),
      trajectory: [0, 1, 2, 3].map(() => round(funding + pick(-0.00001, 0.00001), 8)),
    },
  };
}

/** One market's record on one venue, drawn from the venue and the ticker (and the sandbox's seed). */
export function marketRecord(ctx: SandboxContext, venue: Venue, ticker: string): Record<string, unknown> {
  const r = rng(hash32(`perp:${ctx.data.seed}:${venue}:${ticker}`));
  const pick = between(r);
  const quote = VENUE_LISTS[venue].quote;
  const p = prices(ctx, venue, ticker, r);
  const b = book(MARKETS[ticker]!.kind, r);
  const obv = () => round(pick(-5e6, 5e6), 2);
  return {
    symbol: `${ticker}/${quote}:${quote}`,
    base: ticker,
    quote,
    mark_price: p.mark,
    mid_price: p.mid,
    price_change_24h: p.change,
    price_change_percent_24h: p.changePercent,
    bid_ask_spread: p.spread,
    bid_ask_spread_percentage_mark: p.spreadPercent,
    bid_liquidity_0_25_percentage: b.bid,
    ask_liquidity_0_25_percentage: b.ask,
    total_liquidity_0_25_percentage: b.total,
    order_book_imbalance_percentage: b.imbalance,
    open_interest: b.openInterest,
    funding_rate: b.funding,
    obv: { "1h": obv(), "4h": obv(), "1d": obv() },
    rsi: { "15m": round(pick(20, 80), 2), "1h": round(pick(25, 75), 2), "4h": round(pick(30, 70), 2) },
    atr: p.atr,
    swing: p.swing,
    adx: { "1h": round(pick(10, 50), 2), "4h": round(pick(10, 50), 2) },
    macd_line_slope: { "15m": { macd_line: sig(p.mark * pick(-0.002, 0.002), 5) } },
  };
}

/** The venue a request asks: `dex` on the newer path (required); Hyperliquid's alone on the older. */
function venueOf(path: string, dex: string | undefined): Venue {
  const named = VENUES.values.join(", ");
  if (path.startsWith(OLDER_PATH)) {
    if (dex !== undefined && dex !== VENUES.default)
      throw new HttpError(
        400,
        `${OLDER_PATH} serves ${VENUES.default} alone; ask /v1/perp-intelligence for ${dex}`,
      );
    return VENUES.default;
  }
  if (dex === undefined) throw new HttpError(400, `${VENUES.param} is required (${named})`);
  const venue = VENUES.values.find((v) => v === dex);
  if (!venue) throw new HttpError(400, `unsupported ${VENUES.param} '${dex}' (${named})`);
  return venue;
}

/** GET /v1/perp-intelligence?dex=&token_ticker= and GET /v1/hl-perp-trade?token_ticker=: one record. */
export const perp: Handler = paid((req, ctx) => {
  const venue = venueOf(req.path, req.query.param(VENUES.param));
  const ticker = req.query.param(selectors.ticker);
  if (!ticker) throw new HttpError(400, `${selectors.ticker} is required`);
  if (ticker.includes(",")) throw new HttpError(400, `${selectors.ticker} takes one ticker`);
  const market = marketOf(ticker);
  if (!market || !VENUE_LISTS[venue].kinds.includes(MARKETS[market]!.kind))
    throw new HttpError(404, `no market for ${ticker} on ${venue}`);
  return { body: { success: true, data: marketRecord(ctx, venue, market) } };
});
