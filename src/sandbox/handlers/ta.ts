import { ENDPOINTS } from "../../contract/endpoints.js";
import { type Handler, keyedListing } from "./context.js";

/** GET /v1/token-ta: multi-interval technical analysis (docs/api-notes.md, "Records"). */
export const ta: Handler = keyedListing({
  endpoint: ENDPOINTS.ta,
  record: (ctx, token) =>
    ctx.options.taStyle === "flat" ? ctx.data.taRecord(token) : ctx.data.taRecordDocumented(token),
});
