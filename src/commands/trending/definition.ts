import { TRENDING_RECORD } from "../../api/fields.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { identity } from "../../output/column-sets.js";
import { col } from "../../output/columns.js";
import { type DataCommandDefinition, endpointOf, type TableLayout } from "../data/definition.js";

// Trending records keep their figures at the top level (live-notes: `volume`, `liquidity`, `mcap`),
// not in token_metrics; where a server nests them as market does, the columns read that too.

const figure = (header: string, paths: string[], format: "price" | "percent" | "usd") =>
  col(header, [...paths, ...paths.map((p) => `token_metrics.${p}`)], format);

const price = figure("PRICE", ["usd_price", "price"], "price");
const change24h = figure("24H", ["price_change_percentage_24h"], "percent");
const volume = figure("VOL 24H", ["volume", "volume_24h"], "usd");
const liquidity = figure("LIQ", ["liquidity", "total_liquidity"], "usd");
const mcap = figure("MCAP", ["mcap", "market_cap_usd"], "usd");

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
      col("CHAIN", ["chain", "token_info.chain"], "text"),
      col("ADDRESS", ["token_address", "token_info.ca", "address"], "text", { max: 44, min: 14 }),
      col("ID", ["token_id", "id"], "text", { max: 24, min: 8 }),
    ],
  },
};

export const TRENDING: DataCommandDefinition = {
  name: "trending",
  ...endpointOf(ENDPOINTS.trending, "trending"),
  shape: TRENDING_RECORD,
  table: { views: VIEWS, defaultView: "overview" },
  emptyMessage: "No trending tokens.",
};
