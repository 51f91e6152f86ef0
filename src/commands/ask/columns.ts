import { type Column, col } from "../../output/columns.js";

/** The table of the tokens an answer names (tokenDetails). */
export const ASK_COLUMNS: { columns: Column[]; wide: Column[] } = {
  columns: [
    col("TICKER", "token_ticker", "text", { max: 12, min: 4 }),
    // A name of several words wraps on a terminal rather than being cut.
    col("NAME", "token_name", "text", { max: 22, min: 9, wrap: true }),
    col("CHAIN", "chain", "text"),
    col("PRICE", "current_usd_price", "price"),
    col("24H", "last_24_hrs_price_change_percentage", "percent"),
    col("MCAP", "market_cap", "usd"),
    col("VOL 24H", "last_24_hrs_volume", "usd"),
  ],
  wide: [
    col("HIGH 24H", "last_24_hrs_price_high", "price"),
    col("TOKEN ID", "token_id", "text", { max: 24 }),
  ],
};
