import { PAGE_SIZES } from "./api.js";

// Every endpoint tokenintel knows, once: its path (and the spellings the service also answers),
// its page size, whether it needs a chain, the query parameter each kind of token list is sent
// as, and whether a request without a key may pay for itself (x402). The client's commands and
// the sandbox's handlers both read this table, so the sandbox cannot drift from the client.

/** The kinds of token list a command takes: --tickers, --addresses, --ids. */
export type SelectorKind = "ticker" | "address" | "id";

export interface EndpointSpec {
  /** The path the client sends (api.md §4, live-notes). */
  path: string;
  /** Other spellings the service answers to (the sandbox routes them too). */
  aliases: readonly string[];
  /** Items a full page holds; 0 when the service does not page. */
  pageSize: number;
  /** Whether a request must name a chain. */
  chainRequired: boolean;
  /** The query parameter each kind of token list is sent as (one list per request). */
  selectors: Readonly<Partial<Record<SelectorKind, string>>>;
  /** A request without a key is answered with an x402 offer, and may pay per request. */
  payable: boolean;
}

const TOKEN_LISTS = { ticker: "token_tickers", address: "token_addresses", id: "token_ids" } as const;

export const ENDPOINTS = {
  market: {
    path: "/v1/crypto-market/",
    aliases: [], // the form without the slash answers 301 to this one (live-notes)
    pageSize: PAGE_SIZES.market,
    chainRequired: true,
    selectors: TOKEN_LISTS,
    payable: false,
  },
  directory: {
    path: "/v1/crypto-metainfo",
    aliases: ["/v1/crypto-metainfo/"],
    pageSize: PAGE_SIZES.directory,
    chainRequired: true,
    selectors: { address: "token_addresses" },
    payable: true,
  },
  agents: {
    path: "/v1/agents",
    aliases: ["/v1/agents/"],
    pageSize: PAGE_SIZES.agents,
    chainRequired: true,
    selectors: { ticker: "agent_tickers", address: "agent_addresses", id: "agent_ids" },
    payable: false,
  },
  ta: {
    path: "/v1/token-ta",
    aliases: ["/v1/token-ta/"],
    pageSize: PAGE_SIZES.ta,
    chainRequired: false,
    selectors: TOKEN_LISTS,
    payable: false,
  },
  trending: {
    path: "/v1/trending",
    aliases: [],
    pageSize: PAGE_SIZES.trending,
    chainRequired: false,
    selectors: {},
    payable: false,
  },
  history: {
    path: "/v1/crypto-market-historical",
    aliases: ["/v1/crypto-market-historical/"],
    pageSize: 1000, // days (live-notes, "Historical market data")
    chainRequired: true,
    selectors: { ticker: "token_ticker", address: "token_address", id: "token_id" },
    payable: true,
  },
  ask: {
    path: "/v1/ask-loky",
    aliases: [],
    pageSize: 0,
    chainRequired: false,
    selectors: {},
    payable: false,
  },
} as const satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;

/** Every path an endpoint answers to: its own and its aliases. */
export function pathsOf(endpoint: EndpointSpec): string[] {
  return [endpoint.path, ...endpoint.aliases];
}
