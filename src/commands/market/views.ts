/** market's column sets (--view), named here so help and completion need not load the columns. */
export const MARKET_VIEWS = ["overview", "holders", "risk", "social", "dev"] as const;
export type MarketView = (typeof MARKET_VIEWS)[number];
