// Facts of the API (docs/api-notes.md), in one place for the client, the sandbox and shell
// completion: chains, the one documented ecosystem, page sizes and the selector limit.

export const CHAINS = ["base", "solana"] as const;
export type Chain = (typeof CHAINS)[number];

/** The one documented ecosystem value; passed through as given otherwise. */
export const ECOSYSTEM = "virtuals";

/** Items a page holds, per endpoint (docs/api-notes.md, "Paging"; trending as the sandbox serves it). */
export const PAGE_SIZES = { market: 30, directory: 100, agents: 30, ta: 30, trending: 20 } as const;

/** Items one selector parameter (`token_tickers`, `token_addresses`, ...) may carry. */
export const MAX_SELECTOR_ITEMS = 30;

export const DEFAULT_BASE_URL = "https://api.dapplooker.com";

/** The ranking strategies trending takes (`mcap` the default). */
export const TRENDING_STRATEGIES = ["mcap", "volume_and_staking", "volume_and_smartmoney"] as const;

/** The generations of paths the provider's docs give (docs/api-notes.md, "Paths"): the older by default. */
export const PATH_GENERATIONS = ["older", "newer"] as const;
export type PathGeneration = (typeof PATH_GENERATIONS)[number];
