import { TRENDING_STRATEGIES } from "../../contract/api.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import type { TokenBase } from "../data.js";
import { HttpError } from "../http.js";
import { draw, type Handler, pageOf, paginationMeta, paid, type SandboxContext } from "./context.js";

type Metrics = Record<string, string>;
const metricsOf = (ctx: SandboxContext, t: TokenBase) => ctx.data.marketRecord(t).token_metrics as Metrics;

/** What each strategy ranks by (live-notes: mcap the default, volume with staking or smart money). */
const RANK_BY: Record<(typeof TRENDING_STRATEGIES)[number], (ctx: SandboxContext, t: TokenBase) => number> = {
  mcap: (ctx, t) => Number(metricsOf(ctx, t).mcap),
  volume_and_staking: (ctx, t) => Number(metricsOf(ctx, t).volume_24h) * (1 + draw(ctx, t, "staking")()),
  volume_and_smartmoney: (ctx, t) =>
    Number(metricsOf(ctx, t).volume_24h) * (1 + draw(ctx, t, "smart-money")()),
};

/**
 * GET /v1/trending and the newer /v1/trending-tokens (live-notes): a ranked list of 200 tokens.
 * Without `strategy`, the sandbox's own order (its trend score); with one, ranked by it. The older
 * path answers the older record (`volume`, `liquidity`, `mcap` as strings at the top level), the
 * newer one the newer record (`network`, `volume_24h_usd`, `liquidity_usd`, `market_cap_usd`,
 * `score`, numbers as numbers). The figures are the token's market figures, so `trending` and
 * `market` agree on every token.
 */
export const trending: Handler = paid((req, ctx) => {
  const strategy = req.query.param("strategy");
  if (strategy !== undefined && !(strategy in RANK_BY))
    throw new HttpError(400, `strategy must be one of ${TRENDING_STRATEGIES.join(", ")}`);
  let tokens = ctx.data.list(req.query.chain(ENDPOINTS.trending.chainRequired), undefined).slice(0, 200);
  if (strategy) {
    const by = RANK_BY[strategy as keyof typeof RANK_BY];
    tokens = tokens
      .map((t) => ({ t, score: by(ctx, t) }))
      .sort((a, b) => b.score - a.score)
      .map(({ t }) => t);
  }
  const newer = req.path.startsWith(ENDPOINTS.trending.newerPath);
  const size = ENDPOINTS.trending.pageSize;
  const page = pageOf(req, ctx, tokens, size);
  const record = newer ? newerRecord : olderRecord;
  return {
    body: {
      success: true,
      data: page.items.map((t, i) => record(ctx, t, (page.pagination.page - 1) * size + i + 1)),
      ...paginationMeta(ctx, page.pagination),
    },
  };
});

function olderRecord(ctx: SandboxContext, t: TokenBase, rank: number) {
  const m = metricsOf(ctx, t);
  return {
    rank,
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
}

function newerRecord(ctx: SandboxContext, t: TokenBase, rank: number) {
  const m = metricsOf(ctx, t);
  return {
    rank,
    token_id: t.id,
    token_name: t.name,
    token_symbol: t.symbol,
    token_address: t.address,
    network: t.chain,
    usd_price: Number(m.usd_price),
    volume_24h_usd: Number(m.volume_24h),
    liquidity_usd: Number(m.total_liquidity),
    market_cap_usd: Number(m.mcap),
    price_change_percentage_1h: Number(m.price_change_percentage_1h),
    price_change_percentage_24h: Number(m.price_change_percentage_24h),
    score: 1000 - t.index,
  };
}
