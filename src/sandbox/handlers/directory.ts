import { ENDPOINTS } from "../../contract/endpoints.js";
import { get, type Handler, keyOrPayment, pageOf, paginationMeta, selectTokens } from "./context.js";

/**
 * GET /v1/crypto-metainfo: the directory, with a key or paid per request (x402).
 * It answers in the style the options choose: the spec's envelope, a bare array, or paginated.
 */
export const directory: Handler = get((req, ctx) => {
  const unpaid = keyOrPayment(req, ctx);
  if (unpaid) return unpaid;
  const tokens = selectTokens(req, ctx, ENDPOINTS.directory);
  const page = pageOf(req, ctx, tokens, ENDPOINTS.directory.pageSize);
  const records = page.items.map((token) => ctx.data.directoryRecord(token));
  const style = ctx.options.directoryStyle ?? "envelope";
  if (style === "bare") return { body: records };
  if (style === "paginated")
    return { body: { success: true, data: records, ...paginationMeta(ctx, page.pagination) } };
  return { body: { success: true, data: records } };
});
