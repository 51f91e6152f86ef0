// The API's record shapes as plain data: what the contract and the provider's docs say a record
// holds (docs/api-notes.md). Each registry entry (endpoints.ts) names its record's shape; one
// description serves the zod schemas (client and sandbox), the list of valid --fields paths, and
// the sandbox's data generator.
// Kinds: "string", "decimal" (decimal string; JSON numbers tolerated), "numeric" (a decimal string
// or a JSON number: sources disagree), "int", "number", "bool", "url", "numbers" (a list of JSON
// numbers); a trailing "?" marks a field
// the spec shows as null in samples, a trailing "~" one that may be absent. A section that may be
// absent is marked with mayBeAbsent().

export type FieldKind = "string" | "decimal" | "numeric" | "int" | "number" | "bool" | "url" | "numbers";
export type FieldSpec = `${FieldKind}` | `${FieldKind}?` | `${FieldKind}~`;
export interface Shape {
  [key: string]: FieldSpec | Shape;
}

const absentSections = new WeakSet<Shape>();

/** Marks a section that a record of this shape may lack. */
export function mayBeAbsent(shape: Shape): Shape {
  const copy = { ...shape };
  absentSections.add(copy);
  return copy;
}

/** Whether a field or section of a shape may be missing from a record. */
export function isAbsentOk(spec: FieldSpec | Shape): boolean {
  return typeof spec === "string" ? spec.endsWith("~") : absentSections.has(spec);
}

export const TOKEN_INFO: Shape = {
  id: "string",
  symbol: "string",
  name: "string",
  handle: "string?",
  description: "string?",
  ca: "string",
  chain: "string",
  ecosystem: "string",
  image: "url",
};

export const TECHNICAL_INDICATORS: Shape = {
  support: "decimal",
  resistance: "decimal",
  rsi: "decimal",
  sma: "decimal",
};

export const HOLDER_INSIGHTS: Shape = {
  total_holder_count: "int",
  holder_count_change_percentage_24h: "decimal",
  fifty_percentage_holding_wallet_count: "decimal",
  first_100_buyers_initial_bought: "decimal",
  first_100_buyers_initial_bought_percentage: "decimal",
  first_100_buyers_current_holding: "decimal",
  first_100_buyers_current_holding_percentage: "decimal",
  top_10_holder_balance: "decimal",
  top_10_holder_percentage: "decimal",
  top_50_holder_balance: "decimal",
  top_50_holder_percentage: "decimal",
  top_100_holder_balance: "decimal",
  top_100_holder_percentage: "decimal",
};

export const SMART_MONEY_INSIGHTS: Shape = {
  top_25_holder_buy_24h: "decimal",
  top_25_holder_sold_24h: "decimal",
};

export const DEV_WALLET_INSIGHTS: Shape = {
  wallet_address: "string",
  wallet_balance: "decimal?",
  dev_wallet_total_holding_percentage: "decimal?",
  dev_wallet_outflow_txs_count_24h: "int?",
  dev_wallet_outflow_amount_24h: "decimal?",
  fresh_wallet: "bool",
  dev_sold: "bool",
  dev_sold_percentage: "decimal",
  bundle_wallet_count: "int",
  bundle_wallet_supply_percentage: "decimal?",
};

export const TOKEN_METRICS: Shape = {
  usd_price: "decimal",
  mcap: "decimal",
  /** mcap as a newer documentation page names it. */
  market_cap_usd: "numeric~",
  fdv: "decimal",
  volume_24h: "decimal",
  total_liquidity: "decimal",
  price_change_percentage_1h: "decimal",
  price_change_percentage_24h: "decimal",
  price_change_percentage_7d: "decimal",
  price_change_percentage_30d: "decimal",
  volume_change_percentage_7d: "decimal",
  volume_change_percentage_30d: "decimal",
  mcap_change_percentage_7d: "decimal",
  mcap_change_percentage_30d: "decimal",
  price_high_24h: "decimal",
  price_ath: "decimal",
  circulating_supply: "decimal",
  total_supply: "decimal?",
};

export const SOCIAL_WINDOWS = ["3d", "7d"] as const;

/** The TA intervals the spec names, in display order. */
export const TA_INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d", "1w", "30d"] as const;
export const X_SOCIAL_METRICS: Shape = Object.fromEntries(
  SOCIAL_WINDOWS.flatMap((window) => [
    [`mindshare_${window}`, "number"],
    [`mindshare_change_percentage_${window}`, "number"],
    [`impression_count_${window}`, "int"],
    [`impression_count_change_percentage_${window}`, "number"],
    [`engagement_count_${window}`, "int"],
    [`engagement_count_change_percentage_${window}`, "number"],
    [`follower_count_${window}`, "int"],
    [`smart_follower_count_${window}`, "int"],
  ]),
);

/** Keys a record may lack: sections the spec says may be absent, TA intervals a server leaves out. */
export const OPTIONAL_KEYS = new Set([
  "token_holder_insights",
  "agent_holder_insights",
  "smart_money_insights",
  "dev_wallet_insights",
  "x_social_metrics",
  "image",
  ...TA_INTERVALS.map((interval) => `price_change_percentage_${interval}`),
]);

export const MARKET_RECORD: Shape = {
  id: "string",
  token_info: TOKEN_INFO,
  technical_indicators: TECHNICAL_INDICATORS,
  token_holder_insights: HOLDER_INSIGHTS,
  smart_money_insights: SMART_MONEY_INSIGHTS,
  dev_wallet_insights: DEV_WALLET_INSIGHTS,
  token_metrics: TOKEN_METRICS,
  x_social_metrics: X_SOCIAL_METRICS,
  last_updated_at: "string",
};

export const DIRECTORY_RECORD: Shape = {
  id: "string",
  symbol: "string",
  name: "string",
  address: "string",
  chain: "string",
  ecosystem: "string",
};

export const AGENT_RECORD: Shape = {
  id: "string",
  rug_status: "string",
  agent_info: TOKEN_INFO,
  technical_indicators: TECHNICAL_INDICATORS,
  agent_holder_insights: HOLDER_INSIGHTS,
  smart_money_insights: SMART_MONEY_INSIGHTS,
  dev_wallet_insights: DEV_WALLET_INSIGHTS,
  agent_metrics: TOKEN_METRICS,
  x_social_metrics: X_SOCIAL_METRICS,
  last_updated_at: "string",
};

/** The intervals TA indicators come in; price changes add 30d. */
export const INDICATOR_INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d", "1w"] as const;
export const TA_INDICATORS = ["support", "resistance", "rsi", "sma"] as const;

/**
 * A TA record in either form it comes in: as the provider documents it (keyed `token_id`,
 * `{support,resistance,rsi,sma}_{interval}` in technical_indicators, the price changes in
 * token_metrics, the symbol under token_info or at the top level), or flat, as the contract's change
 * history suggests (one set of indicators, the price changes at the top level). Every part may be
 * absent; the table shows what came.
 */
export const TA_RECORD: Shape = {
  id: "string~",
  token_id: "string~",
  token_symbol: "string~",
  token_name: "string~",
  // The seed's form: the symbol, name and price at the top level.
  symbol: "string~",
  name: "string~",
  usd_price: "numeric~",
  token_address: "string~",
  chain: "string~",
  token_info: mayBeAbsent(TOKEN_INFO),
  technical_indicators: Object.fromEntries([
    ...TA_INDICATORS.map((indicator) => [indicator, "numeric~"]),
    ...TA_INDICATORS.flatMap((indicator) =>
      INDICATOR_INTERVALS.map((interval) => [`${indicator}_${interval}`, "numeric~"]),
    ),
  ]),
  token_metrics: mayBeAbsent(
    Object.fromEntries(TA_INTERVALS.map((interval) => [`price_change_percentage_${interval}`, "numeric~"])),
  ),
  ...Object.fromEntries(TA_INTERVALS.map((interval) => [`price_change_percentage_${interval}`, "numeric~"])),
  last_updated_at: "string",
};

/**
 * A trending record in either form the provider documents: the older path's
 * (`token_id`, `token_symbol`, `token_name`, `token_address`, `volume`, `liquidity`, `mcap` as
 * strings at the top level) and the newer path's (`rank`, `network`, `volume_24h_usd`,
 * `liquidity_usd`, `market_cap_usd`, `price_change_percentage_1h`, `score`, numbers as numbers).
 * Every field may be absent or of either number form; unknown fields pass through.
 */
export const TRENDING_RECORD: Shape = {
  rank: "int~",
  token_id: "string~",
  id: "string~",
  token_symbol: "string~",
  token_name: "string~",
  token_address: "string~",
  chain: "string~",
  network: "string~",
  usd_price: "numeric~",
  price_change_percentage_1h: "numeric~",
  price_change_percentage_24h: "numeric~",
  volume: "numeric~",
  volume_24h_usd: "numeric~",
  liquidity: "numeric~",
  liquidity_usd: "numeric~",
  mcap: "numeric~",
  market_cap_usd: "numeric~",
  trend_score: "numeric~",
  score: "numeric~",
  last_updated_at: "string~",
};

/** The windows smart-money flows come in. */
export const FLOW_WINDOWS = ["24h", "7d", "30d"] as const;

/** One direction of smart-money flow: USD and token amounts per window, JSON numbers. */
const FLOW: Shape = Object.fromEntries(
  FLOW_WINDOWS.flatMap((window) => [
    [`usd_value_${window}`, "numeric~"],
    [`token_${window}`, "numeric~"],
  ]),
);

/**
 * A smart-money record (GET /v1/smart-money-trends): the net flows of the top 50
 * smart-money wallets into and out of one token.
 */
export const SMART_MONEY_RECORD: Shape = {
  symbol: "string",
  token_address: "string",
  net_inflow: FLOW,
  net_outflow: FLOW,
};

/**
 * A staking record (GET /v1/stake-trends, newer /v1/staking-intelligence): details,
 * the last 24h, and recent activities (a list, outside the shape's reach). `tvl` in the older docs,
 * `tvl_usd` in the newer; `net_staked` and `net_staked_usd` are formatted strings ("3.4M").
 */
export const STAKING_RECORD: Shape = {
  staking_details: {
    name: "string~",
    ticker: "string~",
    contract_address: "string~",
    latest_price: "numeric~",
    volume_usd_24h: "numeric~",
    price_change_percentage_24h: "numeric~",
    stake_retention_percentage: "numeric~",
    tvl: "numeric~",
    tvl_usd: "numeric~",
    net_staked: "string~",
    net_staked_usd: "string~",
    net_staked_percentage: "numeric~",
    total_stakers: "numeric~",
    total_withdrawn: "numeric~",
    total_withdrawn_percentage: "numeric~",
    token_holders: "numeric~",
  },
  trends: mayBeAbsent({
    stake_count_24h: "numeric~",
    stake_amount_24h: "numeric~",
    stake_amount_usd_24h: "numeric~",
    unstake_count_24h: "numeric~",
    unstake_amount_24h: "numeric~",
    unstake_amount_usd_24h: "numeric~",
  }),
};

/** One staking activity (a staking record's `staking_activities`, and a row of --activities). */
export const STAKING_ACTIVITY: Shape = {
  tx_hash: "string~",
  wallet_address: "string~",
  action: "string~",
  amount: "numeric~",
  timestamp: "string~",
  token_address: "string~",
  user_type: "string~",
  symbol: "string~",
};

/** Figures by interval, JSON numbers: `{ "1h": 61.2, "4h": 58.9 }`. */
const byInterval = (...keys: string[]): Shape => Object.fromEntries(keys.map((k) => [k, "number"]));

/**
 * A perpetual futures market on one venue (its registry entry names the paths; docs/api-notes.md):
 * one object an answer, numbers as JSON numbers. Depth is USD within 0.25 % of mid; the imbalance
 * is (bid − ask) / (bid + ask) of that depth, a fraction despite its name; the spread's percentage
 * is a percent; the funding rate a fraction of the position per funding interval. The docs cut
 * their sample after macd_line_slope, and other sections (VWAP, EMA distance, Bollinger bands)
 * come unnamed: fields outside the shape pass through as sent.
 */
export const PERP_RECORD: Shape = {
  symbol: "string",
  base: "string",
  quote: "string",
  mark_price: "number",
  mid_price: "number",
  price_change_24h: "number",
  price_change_percent_24h: "number",
  bid_ask_spread: "number",
  bid_ask_spread_percentage_mark: "number",
  bid_liquidity_0_25_percentage: "number",
  ask_liquidity_0_25_percentage: "number",
  total_liquidity_0_25_percentage: "number",
  order_book_imbalance_percentage: "number",
  open_interest: byInterval(
    "usd_value",
    "change_percentage_1h",
    "change_percentage_6h",
    "change_percentage_24h",
  ),
  funding_rate: { current_value: "number", next: "number", trajectory: "numbers" },
  obv: byInterval("1h", "4h", "1d"),
  rsi: byInterval("15m", "1h", "4h"),
  atr: byInterval("15m", "1h", "4h", "percentage_15m", "percentage_1h", "percentage_4h"),
  swing: byInterval("high_4h", "low_4h"),
  adx: byInterval("1h", "4h"),
  macd_line_slope: { "15m": { macd_line: "number" } },
};

export const ASK_TOKEN_DETAIL: Shape = {
  token_ticker: "string",
  token_ca: "string",
  token_name: "string",
  token_id: "string",
  chain: "string",
  current_usd_price: "decimal",
  last_24_hrs_price_change_percentage: "decimal",
  market_cap: "decimal",
  last_24_hrs_market_cap_change_percentage: "decimal",
  last_24_hrs_volume: "decimal",
  last_24_hrs_price_high: "decimal",
};

/** Every dot path in a shape, objects included (`token_info` and `token_info.symbol`). */
export function dotPaths(shape: Shape, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, spec] of Object.entries(shape)) {
    const path = prefix + key;
    out.push(path);
    if (typeof spec === "object") out.push(...dotPaths(spec, `${path}.`));
  }
  return out;
}
