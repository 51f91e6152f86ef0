import { TA_INTERVALS } from "../api/fields.js";
import {
  formatCompact,
  formatInteger,
  formatPercent,
  formatPlain,
  formatPrice,
  formatTime,
  toDecimalNumber,
} from "./format.js";
import { getPath } from "./paths.js";

// What a person sees in a table: which columns, how each value reads, and its tone (the colour it
// gets when colour is on; the text alone must carry the meaning, for NO_COLOR and pipes).

export type Tone = "up" | "down" | "good" | "bad" | "warn" | "dim";
export interface Cell {
  text: string;
  tone?: Tone;
}

export interface FormatContext {
  /** Times as "3m ago" (a terminal) or ISO (piped). */
  relativeTime: boolean;
  now: number;
}

export type CellFormat =
  | "price"
  | "usd"
  | "amount"
  | "percent"
  | "share"
  | "int"
  | "text"
  | "bool"
  | "rsi"
  | "time"
  | "address"
  | "status";

export interface Column {
  header: string;
  /** Dot paths tried in order; the first present one is shown. */
  paths: string[];
  format: CellFormat;
  /** Text columns: the widest they get, and the narrowest they shrink to on a narrow terminal. */
  max?: number;
  min?: number;
  /** A value computed from the whole record (flags) instead of read from a path. */
  compute?: (record: unknown, ctx: FormatContext) => Cell;
}

export function cellValue(record: unknown, column: Column): unknown {
  for (const path of column.paths) {
    const v = getPath(record, path);
    if (v !== undefined) return v;
  }
  return undefined;
}

export const isNumeric = (c: Column) => !["text", "bool", "time", "address", "status"].includes(c.format);

function signedTone(n: number | undefined): Tone | undefined {
  if (n === undefined || n === 0) return undefined;
  return n > 0 ? "up" : "down";
}

const STATUS_TONES: Record<string, Tone> = { SAFE: "good", LOW: "good", CAUTION: "warn", MEDIUM: "warn" };

export function formatCell(record: unknown, column: Column, ctx: FormatContext): Cell {
  if (column.compute) return column.compute(record, ctx);
  const value = cellValue(record, column);
  switch (column.format) {
    case "price":
      return { text: formatPrice(value) };
    case "usd":
      return { text: formatCompact(value, "$") };
    case "amount":
      return { text: formatCompact(value) };
    case "percent": {
      const text = formatPercent(value);
      return { text, tone: text === "0.00%" ? undefined : signedTone(toDecimalNumber(value)) };
    }
    case "share": {
      const n = toDecimalNumber(value);
      return { text: n === undefined ? formatPlain(value) : `${n.toFixed(n >= 10 ? 1 : 2)}%` };
    }
    case "int":
      return { text: formatInteger(value) };
    case "bool":
      if (typeof value !== "boolean") return { text: formatPlain(value) };
      return { text: value ? "✓" : "✗" };
    case "rsi": {
      const n = toDecimalNumber(value);
      if (n === undefined) return { text: formatPlain(value) };
      if (n > 70) return { text: `${n.toFixed(1)} OB`, tone: "bad" };
      if (n < 30) return { text: `${n.toFixed(1)} OS`, tone: "good" };
      return { text: n.toFixed(1) };
    }
    case "time":
      return { text: formatTime(value, ctx), tone: "dim" };
    case "address": {
      const text = formatPlain(value);
      return { text: text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text };
    }
    case "status": {
      const text = formatPlain(value);
      return { text, tone: STATUS_TONES[text.toUpperCase()] ?? (text === "-" ? undefined : "bad") };
    }
    default:
      return { text: formatPlain(value) };
  }
}

const col = (
  header: string,
  path: string | string[],
  format: CellFormat,
  extra: Partial<Column> = {},
): Column => ({
  header,
  paths: Array.isArray(path) ? path : [path],
  format,
  ...extra,
});

/** A column for a --fields/--columns path: the format guessed from the field's name. */
export function columnForPath(path: string): Column {
  const leaf = path.split(".").pop() ?? path;
  let format: CellFormat = "text";
  if (/^rsi$/.test(leaf)) format = "rsi";
  else if (/_percentage(_|$)/.test(leaf)) format = /change|price_change/.test(leaf) ? "percent" : "share";
  else if (/price|^sma$|^support$|^resistance$/.test(leaf)) format = "price";
  else if (/^(mcap|fdv|volume_24h|total_liquidity|market_cap|last_24_hrs_volume)$/.test(leaf)) format = "usd";
  else if (/count/.test(leaf)) format = "int";
  else if (/(balance|supply|bought|holding|amount|buy|sold)(_24h)?$/.test(leaf)) format = "amount";
  else if (/^(fresh_wallet|dev_sold)$/.test(leaf)) format = "bool";
  else if (/_at$/.test(leaf)) format = "time";
  else if (/^mindshare/.test(leaf)) format = "share";
  return col(path, path, format, format === "text" ? { max: 40, min: 6 } : {});
}

// ── market ──────────────────────────────────────────────────────────────────────────────────────

const info = (name: string) => ({
  symbol: col("SYMBOL", `${name}.symbol`, "text", { max: 12, min: 4 }),
  name: col("NAME", `${name}.name`, "text", { max: 24, min: 6 }),
});

const holders = (section: string) => ({
  count: col("HOLDERS", `${section}.total_holder_count`, "int"),
  change: col("HLD 24H", `${section}.holder_count_change_percentage_24h`, "percent"),
  top10: col("TOP10", `${section}.top_10_holder_percentage`, "share"),
  top50: col("TOP50", `${section}.top_50_holder_percentage`, "share"),
  top100: col("TOP100", `${section}.top_100_holder_percentage`, "share"),
  half: col("50% WALLETS", `${section}.fifty_percentage_holding_wallet_count`, "int"),
  f100Bought: col("F100 BOUGHT", `${section}.first_100_buyers_initial_bought_percentage`, "share"),
  f100Hold: col("F100 HOLD", `${section}.first_100_buyers_current_holding_percentage`, "share"),
});

const metrics = (section: string) => ({
  price: col("PRICE", `${section}.usd_price`, "price"),
  h1: col("1H", `${section}.price_change_percentage_1h`, "percent"),
  h24: col("24H", `${section}.price_change_percentage_24h`, "percent"),
  d7: col("7D", `${section}.price_change_percentage_7d`, "percent"),
  d30: col("30D", `${section}.price_change_percentage_30d`, "percent"),
  mcap: col("MCAP", `${section}.mcap`, "usd"),
  fdv: col("FDV", `${section}.fdv`, "usd"),
  volume: col("VOL 24H", `${section}.volume_24h`, "usd"),
  liquidity: col("LIQ", `${section}.total_liquidity`, "usd"),
  ath: col("ATH", `${section}.price_ath`, "price"),
});

const social = {
  mind3: col("MIND 3D", "x_social_metrics.mindshare_3d", "share"),
  mind3Change: col("Δ 3D", "x_social_metrics.mindshare_change_percentage_3d", "percent"),
  mind7: col("MIND 7D", "x_social_metrics.mindshare_7d", "share"),
  mind7Change: col("Δ 7D", "x_social_metrics.mindshare_change_percentage_7d", "percent"),
  impressions: col("IMPR 7D", "x_social_metrics.impression_count_7d", "amount"),
  engagement: col("ENGAGE 7D", "x_social_metrics.engagement_count_7d", "amount"),
  followers: col("FOLLOWERS", "x_social_metrics.follower_count_7d", "amount"),
  smart: col("SMART", "x_social_metrics.smart_follower_count_7d", "int"),
};

const dev = {
  wallet: col("DEV WALLET", "dev_wallet_insights.wallet_address", "address"),
  balance: col("BALANCE", "dev_wallet_insights.wallet_balance", "amount"),
  holding: col("DEV HOLD", "dev_wallet_insights.dev_wallet_total_holding_percentage", "share"),
  outTxs: col("OUT TXS", "dev_wallet_insights.dev_wallet_outflow_txs_count_24h", "int"),
  outAmount: col("OUT 24H", "dev_wallet_insights.dev_wallet_outflow_amount_24h", "amount"),
  fresh: col("FRESH", "dev_wallet_insights.fresh_wallet", "bool"),
  sold: col("SOLD", "dev_wallet_insights.dev_sold", "bool"),
  soldShare: col("SOLD %", "dev_wallet_insights.dev_sold_percentage", "share"),
  bundles: col("BUNDLES", "dev_wallet_insights.bundle_wallet_count", "int"),
  bundleShare: col("BUNDLE %", "dev_wallet_insights.bundle_wallet_supply_percentage", "share"),
};

/** Short flags a person can act on at a glance: dev sold, bundled supply, concentrated holders. */
export function riskFlags(record: unknown, holderSection = "token_holder_insights"): Cell {
  const flags: string[] = [];
  let tone: Tone | undefined;
  const num = (path: string) => toDecimalNumber(getPath(record, path));
  if (getPath(record, "dev_wallet_insights.dev_sold") === true) {
    const share = num("dev_wallet_insights.dev_sold_percentage");
    flags.push(share ? `DEV SOLD ${Math.round(share)}%` : "DEV SOLD");
    tone = "bad";
  }
  const bundled = num("dev_wallet_insights.bundle_wallet_supply_percentage");
  if (bundled !== undefined && bundled >= 5) {
    flags.push(`BUNDLED ${Math.round(bundled)}%`);
    tone = bundled >= 15 ? "bad" : (tone ?? "warn");
  }
  const top10 = num(`${holderSection}.top_10_holder_percentage`);
  if (top10 !== undefined && top10 >= 50) {
    flags.push(`TOP10 ${Math.round(top10)}%`);
    tone ??= "warn";
  }
  if (getPath(record, "dev_wallet_insights.fresh_wallet") === true) {
    flags.push("FRESH DEV");
    tone ??= "warn";
  }
  return flags.length ? { text: flags.join(" "), tone } : { text: "-", tone: "dim" };
}

const flagsColumn = (holderSection: string): Column => ({
  header: "FLAGS",
  paths: [],
  format: "text",
  max: 40,
  min: 8,
  compute: (record) => riskFlags(record, holderSection),
});

const updated = col("UPDATED", "last_updated_at", "time");

export type MarketView = "overview" | "holders" | "risk" | "social" | "dev";
export const MARKET_VIEWS: readonly MarketView[] = ["overview", "holders", "risk", "social", "dev"];

const m = metrics("token_metrics");
const h = holders("token_holder_insights");
const t = info("token_info");
const rsi = col("RSI", "technical_indicators.rsi", "rsi");

export const MARKET_COLUMNS: Record<MarketView, { columns: Column[]; wide: Column[] }> = {
  overview: {
    columns: [
      t.symbol,
      t.name,
      m.price,
      m.h1,
      m.h24,
      m.d7,
      m.mcap,
      m.volume,
      m.liquidity,
      h.count,
      rsi,
      social.mind7,
    ],
    wide: [m.d30, m.fdv, m.ath, h.top10, flagsColumn("token_holder_insights"), updated],
  },
  holders: {
    columns: [t.symbol, h.count, h.change, h.top10, h.top50, h.top100, h.half, h.f100Bought, h.f100Hold],
    wide: [t.name, m.mcap, updated],
  },
  risk: {
    columns: [
      t.symbol,
      h.top10,
      dev.sold,
      dev.soldShare,
      dev.bundles,
      dev.bundleShare,
      dev.fresh,
      h.f100Hold,
      h.change,
      flagsColumn("token_holder_insights"),
    ],
    wide: [t.name, m.mcap, dev.holding, updated],
  },
  social: {
    columns: [
      t.symbol,
      social.mind3,
      social.mind3Change,
      social.mind7,
      social.mind7Change,
      social.impressions,
      social.engagement,
      social.followers,
      social.smart,
    ],
    wide: [t.name, m.h24, updated],
  },
  dev: {
    columns: [
      t.symbol,
      dev.wallet,
      dev.balance,
      dev.holding,
      dev.outTxs,
      dev.outAmount,
      dev.fresh,
      dev.sold,
      dev.soldShare,
      dev.bundles,
      dev.bundleShare,
    ],
    wide: [t.name, updated],
  },
};

// ── the other commands ──────────────────────────────────────────────────────────────────────────

export const DIRECTORY_COLUMNS = {
  columns: [
    col("SYMBOL", "symbol", "text", { max: 12, min: 4 }),
    col("NAME", "name", "text", { max: 24, min: 6 }),
    col("CHAIN", "chain", "text"),
    col("ECOSYSTEM", "ecosystem", "text", { max: 12, min: 6 }),
    col("ADDRESS", "address", "text", { max: 44, min: 14 }),
  ],
  wide: [col("ID", "id", "text", { max: 24, min: 8 })],
};

const a = info("agent_info");
const am = metrics("agent_metrics");
const ah = holders("agent_holder_insights");
export const AGENT_COLUMNS = {
  columns: [
    a.symbol,
    a.name,
    col("STATUS", "rug_status", "status"),
    am.price,
    am.h24,
    am.mcap,
    ah.count,
    ah.top10,
    social.mind7,
  ],
  wide: [am.d7, am.volume, am.liquidity, rsi, flagsColumn("agent_holder_insights"), updated],
};

/** The TA grid: tokens down, the intervals the server sent across (none invented). */
export function taColumns(records: unknown[]): Column[] {
  const present = TA_INTERVALS.filter((i) =>
    records.some((r) => getPath(r, `price_change_percentage_${i}`) !== undefined),
  );
  return [
    t.symbol,
    ...present.map((i) => col(i.toUpperCase(), `price_change_percentage_${i}`, "percent")),
    rsi,
  ];
}
export const TA_COLUMNS = { columns: [t.symbol, rsi], wide: [t.name, updated] };

export const ASK_COLUMNS = {
  columns: [
    col("TICKER", "token_ticker", "text", { max: 12, min: 4 }),
    col("NAME", "token_name", "text", { max: 22, min: 6 }),
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
