import { formatCompact, formatInteger, formatPercent, formatPlain, formatPrice, truncate } from "./format.js";
import { getPath } from "./paths.js";

export type CellFormat = "price" | "usd" | "amount" | "percent" | "int" | "text";

export interface Column {
  header: string;
  /** Dot paths tried in order; the first present one is shown. */
  paths: string[];
  format: CellFormat;
  /** Display width at most (text columns). */
  max?: number;
  /** Numeric columns align right. */
  align?: "left" | "right";
}

const FORMATTERS: Record<CellFormat, (v: unknown) => string> = {
  price: formatPrice,
  usd: (v) => formatCompact(v, "$"),
  amount: (v) => formatCompact(v),
  percent: formatPercent,
  int: formatInteger,
  text: formatPlain,
};

export function cellValue(record: unknown, column: Column): unknown {
  for (const path of column.paths) {
    const v = getPath(record, path);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function formatCell(record: unknown, column: Column): string {
  const text = FORMATTERS[column.format](cellValue(record, column));
  return column.max ? truncate(text, column.max) : text;
}

const col = (header: string, path: string | string[], format: CellFormat, max?: number): Column => ({
  header,
  paths: Array.isArray(path) ? path : [path],
  format,
  max,
  align: format === "text" ? "left" : "right",
});

/** A column for a --fields path: the format guessed from the field's name. */
export function columnForPath(path: string): Column {
  const leaf = path.split(".").pop() ?? path;
  let format: CellFormat = "text";
  if (/percentage|^rsi$/.test(leaf)) format = "percent";
  else if (/price|^sma$|^support$|^resistance$|price_ath/.test(leaf)) format = "price";
  else if (/^(mcap|fdv|volume_24h|total_liquidity|market_cap|last_24_hrs_volume)$/.test(leaf)) format = "usd";
  else if (/count/.test(leaf)) format = "int";
  return col(path, path, format, format === "text" ? 40 : undefined);
}

const symbol = (info: string) => col("SYMBOL", `${info}.symbol`, "text", 12);
const name = (info: string) => col("NAME", `${info}.name`, "text", 22);

export const MARKET_COLUMNS: Column[] = [
  symbol("token_info"),
  name("token_info"),
  col("PRICE", "token_metrics.usd_price", "price"),
  col("24H", "token_metrics.price_change_percentage_24h", "percent"),
  col("7D", "token_metrics.price_change_percentage_7d", "percent"),
  col("MCAP", "token_metrics.mcap", "usd"),
  col("VOL 24H", "token_metrics.volume_24h", "usd"),
  col("LIQUIDITY", "token_metrics.total_liquidity", "usd"),
  col("HOLDERS", "token_holder_insights.total_holder_count", "int"),
];

export const DIRECTORY_COLUMNS: Column[] = [
  col("SYMBOL", "symbol", "text", 12),
  col("NAME", "name", "text", 24),
  col("CHAIN", "chain", "text"),
  col("ECOSYSTEM", "ecosystem", "text", 12),
  col("ADDRESS", "address", "text", 44),
];

export const AGENT_COLUMNS: Column[] = [
  symbol("agent_info"),
  name("agent_info"),
  col("RUG STATUS", "rug_status", "text", 10),
  col("PRICE", "agent_metrics.usd_price", "price"),
  col("24H", "agent_metrics.price_change_percentage_24h", "percent"),
  col("MCAP", "agent_metrics.mcap", "usd"),
  col("HOLDERS", "agent_holder_insights.total_holder_count", "int"),
];

export const TA_COLUMNS: Column[] = [
  symbol("token_info"),
  ...["1m", "5m", "15m", "1h", "4h", "1d", "1w", "30d"].map((i) =>
    col(i.toUpperCase(), `price_change_percentage_${i}`, "percent"),
  ),
  col("RSI", "technical_indicators.rsi", "int"),
];

export const ASK_COLUMNS: Column[] = [
  col("TICKER", "token_ticker", "text", 12),
  col("NAME", "token_name", "text", 22),
  col("CHAIN", "chain", "text"),
  col("PRICE", "current_usd_price", "price"),
  col("24H", "last_24_hrs_price_change_percentage", "percent"),
  col("MCAP", "market_cap", "usd"),
  col("VOL 24H", "last_24_hrs_volume", "usd"),
];
