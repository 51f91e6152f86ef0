import { ENDPOINTS } from "../../contract/endpoints.js";
import { type Handler, keyedListing } from "./context.js";

/** GET /v1/token-ta: multi-interval technical analysis (docs/api-notes.md, "Records"). */
export const ta: Handler = keyedListing({
  endpoint: ENDPOINTS.ta,
  record: (ctx, t) =>
    ctx.options.taStyle === "flat" ? ctx.data.taRecord(t) : ctx.data.taRecordDocumented(t),
});
