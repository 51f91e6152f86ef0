import { ENDPOINTS } from "../../contract/endpoints.js";
import { get, type Handler, pageOf, paginationMeta, requireKey } from "./context.js";

/**
 * GET /v1/trending (live-notes: named in newer documentation): a ranked list of 200 tokens, in the
 * documented shape (`token_id`, `token_symbol`, `token_name`, `token_address` at the top level, not
 * under token_info; `volume`, `liquidity`, `mcap`). The figures are the token's market figures, so
 * `trending` and `market` agree on every token.
 */
export const trending: Handler = get((req, ctx) => {
  requireKey(ctx, req.query.param("api_key"));
  const tokens = ctx.data.list(req.query.chain(ENDPOINTS.trending.chainRequired), undefined).slice(0, 200);
  const size = ENDPOINTS.trending.pageSize;
  const page = pageOf(req, ctx, tokens, size);
  return {
    body: {
      success: true,
      data: page.items.map((t, i) => {
        const m = ctx.data.marketRecord(t).token_metrics as Record<string, unknown>;
        return {
          rank: (page.pagination.page - 1) * size + i + 1,
          token_id: t.id,
          token_symbol: t.symbol,
          token_name: t.name,
          token_address: t.address,
          chain: t.chain,
          usd_price: m.usd_price,
          price_change_percentage_24h: m.price_change_percentage_24h,
          volume: m.volume_24h,
          liquidity: m.total_liquidity,
          mcap: m.mcap,
          trend_score: (1000 - t.index).toString(),
        };
      }),
      ...paginationMeta(ctx, page.pagination),
    },
  };
});
