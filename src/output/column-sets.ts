import { IDENTITY_PATHS } from "../contract/identity.js";
import { type Column, col } from "./columns.js";
import { riskFlags } from "./risk.js";

// Column builders the commands compose their views from: a record section's columns by name, so
// market (token_*) and agents (agent_*) read the same fields under their own section names.

/** Which token a row is, wherever the record keeps it (token_info, agent_info, the top level). */
export const identity = {
  // Never shrunk to fit a terminal (no min): a row is known by its symbol, read whole.
  symbol: col("SYMBOL", [...IDENTITY_PATHS.symbol], "text", { max: 12 }),
  name: col("NAME", [...IDENTITY_PATHS.name], "text", { max: 24, min: 6 }),
};

export const holders = (section: string) => ({
  count: col("HOLDERS", `${section}.total_holder_count`, "int"),
  change: col("HLD 24H", `${section}.holder_count_change_percentage_24h`, "percent"),
  top10: col("TOP10", `${section}.top_10_holder_percentage`, "share"),
  top50: col("TOP50", `${section}.top_50_holder_percentage`, "share"),
  top100: col("TOP100", `${section}.top_100_holder_percentage`, "share"),
  half: col("50% WALLETS", `${section}.fifty_percentage_holding_wallet_count`, "int"),
  f100Bought: col("F100 BOUGHT", `${section}.first_100_buyers_initial_bought_percentage`, "share"),
  f100Hold: col("F100 HOLD", `${section}.first_100_buyers_current_holding_percentage`, "share"),
});

export const metrics = (section: string) => ({
  price: col("PRICE", `${section}.usd_price`, "price"),
  h1: col("1H", `${section}.price_change_percentage_1h`, "percent"),
  h24: col("24H", `${section}.price_change_percentage_24h`, "percent"),
  d7: col("7D", `${section}.price_change_percentage_7d`, "percent"),
  d30: col("30D", `${section}.price_change_percentage_30d`, "percent"),
  mcap: col("MCAP", [`${section}.mcap`, `${section}.market_cap_usd`], "usd"),
  fdv: col("FDV", `${section}.fdv`, "usd"),
  volume: col("VOL 24H", `${section}.volume_24h`, "usd"),
  liquidity: col("LIQ", `${section}.total_liquidity`, "usd"),
  ath: col("ATH", `${section}.price_ath`, "price"),
});

export const social = {
  mind3: col("MIND 3D", "x_social_metrics.mindshare_3d", "share"),
  mind3Change: col("Δ 3D", "x_social_metrics.mindshare_change_percentage_3d", "percent"),
  mind7: col("MIND 7D", "x_social_metrics.mindshare_7d", "share"),
  mind7Change: col("Δ 7D", "x_social_metrics.mindshare_change_percentage_7d", "percent"),
  impressions: col("IMPR 7D", "x_social_metrics.impression_count_7d", "amount"),
  engagement: col("ENGAGE 7D", "x_social_metrics.engagement_count_7d", "amount"),
  followers: col("FOLLOWERS", "x_social_metrics.follower_count_7d", "amount"),
  smart: col("SMART", "x_social_metrics.smart_follower_count_7d", "int"),
};

export const dev = {
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

export const flagsColumn = (holderSection: string): Column => ({
  header: "FLAGS",
  paths: [],
  format: "text",
  max: 40,
  min: 8,
  compute: (record) => riskFlags(record, holderSection),
});

export const updated = col("UPDATED", "last_updated_at", "time");

/** RSI from the flat technical indicators. */
export const rsi = col("RSI", "technical_indicators.rsi", "rsi");
