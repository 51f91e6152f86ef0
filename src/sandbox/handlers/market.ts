import { PAGE_SIZES } from "../../spec/api.js";
import { type Handler, keyedListing, TOKEN_SELECTORS } from "./context.js";

/** GET /v1/crypto-market/ (api.md §4.1); the path without the slash answers 301 (live-notes). */
export const market: Handler = keyedListing({
  chainRequired: true,
  selectors: TOKEN_SELECTORS,
  pageSize: PAGE_SIZES.market,
  record: (ctx, t) =>
    ctx.options.marketStyle === "numbers" ? ctx.data.marketRecordNumbers(t) : ctx.data.marketRecord(t),
});

export const marketRedirect: Handler = (req) => ({ redirect: `/v1/crypto-market/${req.url.search}` });
