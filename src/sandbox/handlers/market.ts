import { ENDPOINTS } from "../../contract/endpoints.js";
import { type Handler, keyedListing } from "./context.js";

/** GET /v1/crypto-market/; the path without the slash answers 301 (docs/api-notes.md, "Paths"). */
export const market: Handler = keyedListing({
  endpoint: ENDPOINTS.market,
  record: (ctx, token) =>
    ctx.options.marketStyle === "numbers"
      ? ctx.data.marketRecordNumbers(token)
      : ctx.data.marketRecord(token),
});

export const marketRedirect: Handler = (req) => ({ redirect: `${ENDPOINTS.market.path}${req.url.search}` });
