import { MAX_SELECTOR_ITEMS, PAGE_SIZES } from "./api.js";

// The registry: every endpoint the provider documents, once (docs/api-notes.md). Each entry holds
// its paths in both generations of the docs, method, paging, selectors and their limits, its
// record's shape and where a record keeps its identity, table views, price, and what serves it: a
// command, a sandbox handler, an MCP tool (or the documented reason there is none). Commands, the
// sandbox, completion, schemas, record checks, `api --list` and the MCP server are derived from it;
// test/unit/registry.test.ts fails while an entry misses a part.

export type {
  EndpointSpec,
  FanOut,
  IdentityRole,
  McpPart,
  SelectorKind,
  Without,
} from "./endpoint-spec.js";
export { pathsOf } from "./endpoint-spec.js";

import type { EndpointSpec } from "./endpoint-spec.js";
import {
  BASE_TOKEN_LIST,
  DATA_PRICE,
  ONE_ANSWER,
  stamped,
  TOKEN_LISTS,
  undocumented,
  VENUES,
} from "./endpoint-spec.js";
import {
  AGENT_RECORD,
  DIRECTORY_RECORD,
  MARKET_RECORD,
  PERP_RECORD,
  type Shape,
  SMART_MONEY_RECORD,
  STAKING_RECORD,
  TA_RECORD,
  TRENDING_RECORD,
} from "./shapes.js";

export const ENDPOINTS = {
  market: {
    path: "/v1/crypto-market/",
    newerPath: "/v1/token-intelligence/",
    aliases: ["/v1/token-intelligence"], // the older form without the slash answers 301
    method: "GET",
    pageSize: PAGE_SIZES.market,
    chainRequired: true,
    selectors: TOKEN_LISTS,
    selectorRequired: false,
    maxSelectorItems: MAX_SELECTOR_ITEMS,
    shape: MARKET_RECORD,
    identity: { id: "id", symbol: "token_info.symbol" },
    views: ["overview", "holders", "risk", "social", "dev"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "market",
    sandbox: true,
    mcp: {
      tool: "market",
      title: "Token market data",
      description:
        "Market, holder, smart-money, dev-wallet and social data per token: price, market cap, volume, liquidity, holders, top-holder shares, dev selling, mindshare. Name tokens, or list a chain or ecosystem.",
      compact: [
        "id",
        "token_info.symbol",
        "token_info.name",
        "token_info.ca",
        "token_metrics.usd_price",
        "token_metrics.price_change_percentage_24h",
        "token_metrics.mcap",
        "token_metrics.volume_24h",
        "token_metrics.total_liquidity",
        "token_holder_insights.total_holder_count",
        "token_holder_insights.top_10_holder_percentage",
      ],
    },
  },
  directory: {
    path: "/v1/crypto-metainfo",
    aliases: ["/v1/crypto-metainfo/"],
    method: "GET",
    pageSize: PAGE_SIZES.directory,
    chainRequired: true,
    selectors: { address: "token_addresses" },
    selectorRequired: false,
    maxSelectorItems: MAX_SELECTOR_ITEMS,
    shape: DIRECTORY_RECORD,
    identity: { id: "id", symbol: "symbol" },
    views: ["default"],
    price: DATA_PRICE,
    keyOptional: true,
    command: "directory",
    sandbox: true,
    mcp: {
      tool: "directory",
      title: "Token directory",
      description:
        "The directory of indexed tokens: id, symbol, name, address, chain, ecosystem. Finds a token's address or id.",
      compact: ["id", "symbol", "name", "address", "chain", "ecosystem"],
    },
  },
  agents: {
    path: "/v1/agents",
    aliases: ["/v1/agents/"],
    method: "GET",
    pageSize: PAGE_SIZES.agents,
    chainRequired: true,
    selectors: { ticker: "agent_tickers", address: "agent_addresses", id: "agent_ids" },
    selectorRequired: false,
    maxSelectorItems: MAX_SELECTOR_ITEMS,
    shape: AGENT_RECORD,
    identity: { id: "id", symbol: "agent_info.symbol" },
    views: ["default"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "agents",
    sandbox: true,
    mcp: {
      tool: "agents",
      title: "Agent tokens",
      description: "AI-agent tokens with the service's rug status, metrics, holders and social data.",
      compact: [
        "id",
        "agent_info.symbol",
        "agent_info.name",
        "rug_status",
        "agent_metrics.usd_price",
        "agent_metrics.mcap",
        "agent_holder_insights.top_10_holder_percentage",
      ],
    },
  },
  ta: {
    path: "/v1/token-ta",
    aliases: ["/v1/token-ta/"],
    method: "GET",
    pageSize: PAGE_SIZES.ta,
    chainRequired: false,
    selectors: TOKEN_LISTS,
    selectorRequired: false,
    maxSelectorItems: MAX_SELECTOR_ITEMS,
    shape: TA_RECORD,
    identity: { id: "token_id", symbol: "token_symbol" },
    views: ["change", "rsi", "support", "resistance", "sma"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "ta",
    sandbox: true,
    mcp: {
      tool: "ta",
      title: "Technical analysis",
      description:
        "Technical analysis per token: price change, RSI, support, resistance and SMA over 1m to 1w.",
      // The day's view and the hour's RSI, in either form a TA record comes in (fields: [] lists the rest).
      compact: [
        "token_id",
        "token_symbol",
        "token_info.symbol",
        "technical_indicators.rsi_1h",
        "technical_indicators.rsi_1d",
        "technical_indicators.support_1d",
        "technical_indicators.resistance_1d",
        "technical_indicators.sma_1d",
        "technical_indicators.rsi",
        "technical_indicators.support",
        "technical_indicators.resistance",
        "token_metrics.price_change_percentage_1h",
        "token_metrics.price_change_percentage_1d",
        "price_change_percentage_1h",
        "price_change_percentage_1d",
      ],
    },
  },
  trending: {
    path: "/v1/trending",
    newerPath: "/v1/trending-tokens",
    aliases: ["/v1/trending/", "/v1/trending-tokens/"],
    method: "GET",
    pageSize: PAGE_SIZES.trending,
    chainRequired: false,
    selectors: {},
    selectorRequired: false,
    maxSelectorItems: MAX_SELECTOR_ITEMS,
    shape: TRENDING_RECORD,
    identity: { id: "token_id", symbol: "token_symbol" },
    views: ["overview"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "trending",
    sandbox: true,
    mcp: {
      tool: "trending",
      title: "Trending tokens",
      description:
        "The tokens trending now, ranked by a strategy, with price, 24h change, volume, liquidity and market cap.",
      compact: [
        "rank",
        "token_id",
        "token_symbol",
        "token_name",
        "volume",
        "volume_24h_usd",
        "liquidity",
        "liquidity_usd",
        "mcap",
        "market_cap_usd",
        "score",
      ],
    },
  },
  "smart-money": {
    path: "/v1/smart-money-trends",
    aliases: ["/v1/smart-money-trends/"],
    ...BASE_TOKEN_LIST,
    shape: SMART_MONEY_RECORD,
    identity: { symbol: "symbol" },
    views: ["flows"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "smart-money",
    sandbox: true,
    mcp: {
      tool: "smart_money",
      title: "Smart-money flows",
      description:
        "Net inflow and outflow of the top 50 smart-money wallets per Base token, over 24h, 7d and 30d, in USD and tokens.",
      compact: [
        "symbol",
        "token_address",
        "net_inflow.usd_value_24h",
        "net_outflow.usd_value_24h",
        "net_inflow.usd_value_7d",
        "net_outflow.usd_value_7d",
        "net_inflow.usd_value_30d",
        "net_outflow.usd_value_30d",
      ],
    },
  },
  staking: {
    path: "/v1/stake-trends",
    newerPath: "/v1/staking-intelligence",
    aliases: ["/v1/stake-trends/", "/v1/staking-intelligence/"],
    ...BASE_TOKEN_LIST,
    shape: STAKING_RECORD,
    identity: {
      id: "staking_details.contract_address",
      symbol: "staking_details.ticker",
      name: "staking_details.name",
      address: "staking_details.contract_address",
    },
    views: ["details", "trends"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "staking",
    sandbox: true,
    mcp: {
      tool: "staking",
      title: "Staking intelligence",
      description:
        "Staking per Base token: TVL, net staked, retention, stakers, the last 24h of stakes and unstakes, recent activity by user type.",
      compact: [
        "staking_details.ticker",
        "staking_details.contract_address",
        "staking_details.tvl",
        "staking_details.tvl_usd",
        "staking_details.net_staked",
        "staking_details.stake_retention_percentage",
        "staking_details.total_stakers",
        "trends",
      ],
    },
  },
  history: {
    path: "/v1/crypto-market-historical",
    newerPath: "/v1/historical-market-data",
    aliases: ["/v1/crypto-market-historical/", "/v1/historical-market-data/"],
    method: "GET",
    pageSize: 1000, // days
    chainRequired: true,
    selectors: { ticker: "token_ticker", address: "token_address", id: "token_id" },
    selectorRequired: true,
    maxSelectorItems: 1,
    identity: { id: "token_id", symbol: "token_symbol" },
    views: ["default"],
    price: DATA_PRICE,
    keyOptional: true,
    command: "history",
    sandbox: true,
    mcp: {
      tool: "history",
      title: "Daily price history",
      description:
        "Daily USD price, volume and market cap per token named, oldest day first (the last 30 days unless since says).",
      compact: ["token_id", "token_symbol", "days"],
      defaults: { since: "30d" },
    },
  },
  ask: {
    path: "/v1/ask-loky",
    aliases: [],
    method: "POST",
    ...ONE_ANSWER,
    views: ["default"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "ask",
    sandbox: true,
    mcp: {
      tool: "ask",
      title: "Ask in plain language",
      description: "A question in plain language; the service's answer (markdown) and the tokens it names.",
      compact: ["nlpResponse", "tokenDetails"],
      argument: { name: "question", description: "e.g. 'how is $AIXBT doing today?' (tickers with a $)" },
    },
  },
  perp: {
    path: "/v1/hl-perp-trade",
    newerPath: "/v1/perp-intelligence",
    aliases: ["/v1/hl-perp-trade/", "/v1/perp-intelligence/"],
    method: "GET",
    pageSize: 0,
    chainRequired: false,
    noChain: true,
    selectors: { ticker: "token_ticker" },
    selectorRequired: true,
    maxSelectorItems: 1,
    oneRecord: true,
    fanOut: VENUES,
    shape: stamped(PERP_RECORD, VENUES),
    views: ["board", "technicals"],
    price: DATA_PRICE,
    keyOptional: false,
    command: "perp",
    sandbox: true,
    mcp: {
      tool: "perp",
      title: "Perp markets",
      description:
        "Perpetual futures per ticker and venue (dex: hyperliquid by default, a list, or all ten): mark, 24h change, funding, open interest, spread, depth within 0.25%, imbalance, RSI, ATR, ADX.",
      compact: [
        "dex",
        "base",
        "mark_price",
        "price_change_percent_24h",
        "funding_rate.current_value",
        "open_interest.usd_value",
        "open_interest.change_percentage_24h",
        "bid_ask_spread_percentage_mark",
        "total_liquidity_0_25_percentage",
        "order_book_imbalance_percentage",
      ],
    },
  },
  "wallet-safety": undocumented("/v1/wallet-safety-score/"),
  "agent-metrics": undocumented("/v1/agent-metrics/"),
  "bubble-map": undocumented("/v1/bubble-map/"),
  "oi-data": undocumented("/v1/oi-data/"),
  "participant-trends": undocumented("/v1/participant-trends/"),
  "monthly-revenue": undocumented("/v1/monthly-revenue/"),
  "perp-research": undocumented("/v1/perp-trading-research/", { method: "POST" }),
  // An AI-written market analysis (markdown): a REST endpoint, not the Model Context Protocol.
  "market-analysis": {
    path: "/v1/mcp/",
    aliases: ["/v1/mcp"],
    method: "POST",
    ...ONE_ANSWER,
    views: [],
    price: "0.10",
    keyOptional: false,
    command: "ask",
    commandFlag: "--deep",
    sandbox: true,
    mcp: { none: "served by the ask tool, as its deep argument" },
  },
  "live-perp-strategy": undocumented("/v1/live-perp-strategy/", { price: "0.50" }),
} as const satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** The kinds of record a page holds: each list endpoint's own (its entry's name), or "any". */
export type RecordKind =
  | { [K in EndpointName]: (typeof ENDPOINTS)[K] extends { shape: Shape } ? K : never }[EndpointName]
  | "any";

/** The shape of a kind's records (undefined for "any": an endpoint the docs do not show). */
export function shapeOf(kind: RecordKind): Shape | undefined {
  return kind === "any" ? undefined : (ENDPOINTS[kind] as EndpointSpec).shape;
}

/** The registry entry a command reads, by the command's name (not one it reads with a flag). */
export function endpointOfCommand(command: string): EndpointSpec | undefined {
  return Object.values(ENDPOINTS).find(
    (e: EndpointSpec) => e.command === command && e.commandFlag === undefined,
  );
}
