import { ENDPOINTS } from "../../contract/endpoints.js";

/** market's column sets (--view), from its registry entry, so help and completion need not load the columns. */
export const MARKET_VIEWS = ENDPOINTS.market.views;
export type MarketView = (typeof MARKET_VIEWS)[number];
