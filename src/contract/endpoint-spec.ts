import { type Chain, MAX_SELECTOR_ITEMS } from "./api.js";
import type { Shape } from "./shapes.js";

// What the registry (endpoints.ts) says of each endpoint: the shape of one entry, the parts it may go
// without, and its MCP tool; and the parts entries share (the token lists they take, the form of
// the Base-only list endpoints, the venues perp intelligence fans out over, the price of a data
// call, the entry of an endpoint the docs name without a shape) and the paths an entry answers to.

/** The kinds of token list a command takes: --tickers, --addresses, --ids. */
export type SelectorKind = "ticker" | "address" | "id";

/** The parts of a token's identity a record carries. */
export type IdentityRole = "id" | "symbol" | "name" | "address";

/** A part an endpoint goes without, and the documented reason why. */
export interface Without {
  none: string;
}

/** The MCP tool an endpoint is served as (the MCP server generates its tools from these). */
export interface McpPart {
  tool: string;
  title: string;
  /** What an agent reads to choose the tool. */
  description: string;
  /** The dot paths of a compact answer: what an agent's context needs of each record. */
  compact: readonly string[];
  /** The command's positional argument, as the tool's (ask's question); always required. */
  argument?: { name: string; description: string };
  /** Values the tool sets when the agent gives none (history's span). */
  defaults?: Readonly<Record<string, unknown>>;
}

/**
 * A query parameter an endpoint is asked for value by value: one request per value and per item of
 * the list, each record stamped with the value it was asked with, under the parameter's name (the
 * one field tokenintel adds to a record). The command takes it as a flag of the same name: a list of
 * values, `all` for every one, the default when none is given.
 */
export interface FanOut {
  /** The query parameter, the flag, and the field each record carries the value in. */
  param: string;
  /** What one value is, in messages and help ("venue"). */
  noun: string;
  values: readonly string[];
  /** The value asked for when none is given. */
  default: string;
  /**
   * The values the older generation's path serves, when it serves only some: the others are asked
   * at the newer path under either generation.
   */
  olderPathServes?: readonly string[];
}

export interface EndpointSpec {
  /** The path of the older generation of the docs (the one the provider's agent files call). */
  path: string;
  /** The path the newer generation of the docs gives, where it renamed the endpoint. */
  newerPath?: string;
  /** Other spellings the service answers to (the sandbox routes them too). */
  aliases: readonly string[];
  method: "GET" | "POST";
  /** Items a full page holds; 0 when the service does not page (one request, no `page`). */
  pageSize: number;
  /** Whether a request must name a chain. */
  chainRequired: boolean;
  /** The one chain the endpoint serves, when the docs name one and it takes no `chain`. */
  onlyOn?: Chain;
  /** The query parameter each kind of token list is sent as (one list per request). */
  selectors: Readonly<Partial<Record<SelectorKind, string>>>;
  /** A request must carry one of the selectors (the docs: "at least one filter is required"). */
  selectorRequired: boolean;
  /** Items one selector parameter may carry; longer lists are split over requests. */
  maxSelectorItems: number;
  /** The answer's `data` is one record, not a list (read as a list of one; null as none). */
  oneRecord?: true;
  /** A parameter asked for value by value (see FanOut). */
  fanOut?: FanOut;
  /** The endpoint takes no chain: the default chain setting is not sent to it. */
  noChain?: true;
  /**
   * The shape of each record of its answer's `data` list (a list endpoint); none for an answer of
   * its own form (ask's, history's series) or one the docs do not show.
   */
  shape?: Shape;
  /**
   * Where its records say which token they are (dot paths): the identity reader
   * (contract/identity.ts) reads them, after the paths the other records share.
   */
  identity?: Readonly<Partial<Record<IdentityRole, string>>>;
  /** The table's column sets (--view), the first the default. */
  views: readonly string[];
  /** USDC a call, paid with x402 when no key is sent (the provider's pricing file). */
  price: string;
  /**
   * A request without a key is sent anyway, and its 402 offer shown (directory, history); on the
   * other endpoints, no key and no --pay is exit 4 before any request.
   */
  keyOptional: boolean;
  /** The tokenintel command that reads it. */
  command: string | Without;
  /**
   * The flag of that command that reads this endpoint, where the command reads another entry's
   * endpoint without it (ask --deep): the command's own entry is the one without a flag.
   */
  commandFlag?: string;
  /** Whether the sandbox serves it (a handler in src/sandbox/handlers/). */
  sandbox: true | Without;
  mcp: McpPart | Without;
}

/** An endpoint that answers one thing, not a list: no pages, no chain, no tokens to name. */
export const ONE_ANSWER = {
  pageSize: 0,
  chainRequired: false,
  selectors: {},
  selectorRequired: false,
  maxSelectorItems: MAX_SELECTOR_ITEMS,
} as const;

export const TOKEN_LISTS = { ticker: "token_tickers", address: "token_addresses", id: "token_ids" } as const;
export const BY_TICKER_OR_ADDRESS = { ticker: "token_tickers", address: "token_addresses" } as const;
/** The Base-only endpoints that answer a list of tickers or addresses, unpaged. */
export const BASE_TOKEN_LIST = {
  method: "GET",
  pageSize: 0,
  chainRequired: false,
  onlyOn: "base",
  selectors: BY_TICKER_OR_ADDRESS,
  selectorRequired: true,
  maxSelectorItems: MAX_SELECTOR_ITEMS,
} as const;

/** A record shape with the field its endpoint's fan-out stamps on each record (the value asked with). */
export function stamped(shape: Shape, fan: FanOut): Shape {
  return { [fan.param]: "string~", ...shape };
}

/**
 * The venues perp intelligence serves (docs/api-notes.md, "Perp intelligence"): `dex` is required on the
 * newer path; the older path is Hyperliquid's alone.
 */
export const VENUES = {
  param: "dex",
  noun: "venue",
  // biome-ignore format: the ten venues in the docs' order, two lines
  values: ["hyperliquid", "nado", "paradex", "pacifica", "avantis",
    "lighter", "aster", "grvt", "variational", "extended"],
  default: "hyperliquid",
  olderPathServes: ["hyperliquid"],
} as const satisfies FanOut;

/** The price of a data call, in USDC (docs/api-notes.md, "Paying per request"). */
export const DATA_PRICE = "0.005";

/** An endpoint the newer docs name with a price but no shape: reached with `tokenintel api`. */
export function undocumented(
  path: string,
  options: { method?: "GET" | "POST"; price?: string; newerOf?: string } = {},
) {
  const why = "the docs give no shape: reach it with `tokenintel api`";
  return {
    path: options.newerOf ?? path,
    ...(options.newerOf ? { newerPath: path } : {}),
    aliases: [path.endsWith("/") ? path.slice(0, -1) : `${path}/`],
    method: options.method ?? "GET",
    ...ONE_ANSWER,
    views: [],
    price: options.price ?? DATA_PRICE,
    keyOptional: true,
    command: { none: why },
    sandbox: { none: "no documented shape to imitate; its 402 offer is the live service's" },
    mcp: { none: why },
  } as const satisfies EndpointSpec;
}

/** Every path an endpoint answers to: both generations and the aliases. */
export function pathsOf(endpoint: EndpointSpec): string[] {
  return [endpoint.path, ...(endpoint.newerPath ? [endpoint.newerPath] : []), ...endpoint.aliases];
}
