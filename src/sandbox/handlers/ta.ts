import { PAGE_SIZES } from "../../spec/api.js";
import { type Handler, keyedListing } from "./context.js";

/** GET /v1/token-ta (api.md §4.3, live-notes): multi-interval technical analysis. */
export const ta: Handler = keyedListing({
  chainRequired: false,
  tickers: "token_tickers",
  pageSize: PAGE_SIZES.ta,
  record: (ctx, t) => ctx.data.taRecord(t),
});
