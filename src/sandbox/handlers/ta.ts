import { PAGE_SIZES } from "../../spec/api.js";
import { type Handler, keyedListing, TOKEN_SELECTORS } from "./context.js";

/** GET /v1/token-ta (api.md §4.3, live-notes): multi-interval technical analysis. */
export const ta: Handler = keyedListing({
  chainRequired: false,
  selectors: TOKEN_SELECTORS,
  pageSize: PAGE_SIZES.ta,
  record: (ctx, t) =>
    ctx.options.taStyle === "flat" ? ctx.data.taRecord(t) : ctx.data.taRecordDocumented(t),
});
