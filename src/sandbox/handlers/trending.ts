import { PAGE_SIZES } from "../../spec/api.js";
import { get, type Handler, pageOf, paginationMeta, requireKey } from "./context.js";

/** GET /v1/trending (live-notes: named in newer documentation): a ranked list of 200 tokens. */
export const trending: Handler = get((req, ctx) => {
  requireKey(ctx, req.query.param("api_key"));
  const tokens = ctx.data.list(req.query.chain(false), undefined).slice(0, 200);
  const size = PAGE_SIZES.trending;
  const page = pageOf(req, ctx, tokens, size);
  return {
    body: {
      success: true,
      data: page.items.map((t, i) => ({
        rank: (page.pagination.page - 1) * size + i + 1,
        id: t.id,
        symbol: t.symbol,
        chain: t.chain,
        trend_score: (1000 - t.index).toString(),
      })),
      ...paginationMeta(ctx, page.pagination),
    },
  };
});
