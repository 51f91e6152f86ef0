import { ENDPOINTS } from "../../contract/endpoints.js";
import { getPath } from "../../json/dot-paths.js";
import { type Column, col } from "../../output/columns.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";
import { annualFunding, fractionPercent, plainPercent } from "./columns.js";

// perp's board: a row per market and venue, grouped by ticker in the order given and the venues in
// theirs. The default view reads like a perp screen (mark, 24h, funding and its year, open interest
// and its 24h change, spread, depth within 0.25 % of mid, imbalance); technicals has the
// indicators. The venue's column is shown when the rows come from more than one venue.

const VENUE = ENDPOINTS.perp.fanOut.param;

const ticker = col("TICKER", ["base", "symbol"], "text", { max: 10, min: 4 });
const venue = col("DEX", VENUE, "text", { max: 11, min: 5 });

/** The ticker, and the venue when the rows come from several. */
function who(records: unknown[]): Column[] {
  const venues = new Set(records.map((r) => getPath(r, VENUE)));
  return venues.size > 1 ? [ticker, venue] : [ticker];
}

const board = [
  col("MARK", "mark_price", "price"),
  col("24H", "price_change_percent_24h", "percent"),
  fractionPercent("FUNDING", "funding_rate.current_value", 4),
  annualFunding("APR", "funding_rate.current_value", VENUE),
  col("OI", "open_interest.usd_value", "usd"),
  col("OI 24H", "open_interest.change_percentage_24h", "percent"),
  plainPercent("SPREAD", "bid_ask_spread_percentage_mark", 4),
  col("±0.25%", "total_liquidity_0_25_percentage", "usd"),
  fractionPercent("IMBAL", "order_book_imbalance_percentage", 2),
];

const technicals = [
  col("RSI 15M", "rsi.15m", "rsi"),
  col("RSI 1H", "rsi.1h", "rsi"),
  col("RSI 4H", "rsi.4h", "rsi"),
  plainPercent("ATR 1H", "atr.percentage_1h", 2),
  col("ADX 1H", "adx.1h", "amount"),
  col("OBV 1D", "obv.1d", "amount"),
  col("SWING HI", "swing.high_4h", "price"),
  col("SWING LO", "swing.low_4h", "price"),
  col("MACD 15M", "macd_line_slope.15m.macd_line", "amount"),
];

const VIEWS: Record<(typeof ENDPOINTS.perp.views)[number], TableLayout> = {
  board: {
    columns: (records) => [...who(records), ...board],
    wide: [
      col("MID", "mid_price", "price"),
      col("24H Δ", "price_change_24h", "price"),
      fractionPercent("NEXT", "funding_rate.next", 4),
      col("OI 1H", "open_interest.change_percentage_1h", "percent"),
      col("OI 6H", "open_interest.change_percentage_6h", "percent"),
      col("BID ±0.25%", "bid_liquidity_0_25_percentage", "usd"),
      col("ASK ±0.25%", "ask_liquidity_0_25_percentage", "usd"),
      col("SYMBOL", "symbol", "text", { max: 24, min: 6 }),
    ],
  },
  technicals: {
    columns: (records) => [...who(records), ...technicals],
    wide: [
      col("ATR 15M", "atr.15m", "price"),
      col("ATR 1H", "atr.1h", "price"),
      col("ATR 4H", "atr.4h", "price"),
      plainPercent("ATR% 4H", "atr.percentage_4h", 2),
      col("ADX 4H", "adx.4h", "amount"),
      col("OBV 1H", "obv.1h", "amount"),
      col("OBV 4H", "obv.4h", "amount"),
    ],
  },
};

export const PERP: DataCommandDefinition = dataCommand(ENDPOINTS.perp, {
  views: VIEWS,
  emptyMessage: "No perp markets for these tickers on the venues asked.",
});
