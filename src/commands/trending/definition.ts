import { ENDPOINTS } from "../../contract/endpoints.js";
import { identity } from "../../output/column-sets.js";
import { col } from "../../output/columns.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";

// Trending records keep their figures at the top level: the older path's record as strings
// (`volume`, `liquidity`, `mcap`), the newer path's as numbers under other names (`volume_24h_usd`,
// `liquidity_usd`, `market_cap_usd`, `network`, `score`). Each column reads both; where a
// server nests the figures as market does, the columns read that too.

const figure = (header: string, paths: string[], format: "price" | "percent" | "usd") =>
  col(header, [...paths, ...paths.map((p) => `token_metrics.${p}`)], format);

const price = figure("PRICE", ["usd_price", "price"], "price");
const change24h = figure("24H", ["price_change_percentage_24h"], "percent");
const volume = figure("VOL 24H", ["volume", "volume_24h", "volume_24h_usd"], "usd");
const liquidity = figure("LIQ", ["liquidity", "total_liquidity", "liquidity_usd"], "usd");
const mcap = figure("MCAP", ["mcap", "market_cap_usd"], "usd");
const change1h = figure("1H", ["price_change_percentage_1h"], "percent");

const VIEWS: Record<"overview", TableLayout> = {
  overview: {
    columns: [
      col("#", "rank", "int"),
      identity.symbol,
      identity.name,
      price,
      change24h,
      volume,
      liquidity,
      mcap,
    ],
    wide: [
      change1h,
      col("SCORE", ["score", "trend_score"], "amount"),
      col("CHAIN", ["chain", "network", "token_info.chain"], "text"),
      col("ADDRESS", ["token_address", "token_info.ca", "address"], "text", { max: 44, min: 14 }),
      col("ID", ["token_id", "id"], "text", { max: 24, min: 8 }),
    ],
  },
};

export const TRENDING: DataCommandDefinition = dataCommand(ENDPOINTS.trending, {
  views: VIEWS,
  emptyMessage: "No trending tokens.",
  params: { strategy: "strategy" },
});
