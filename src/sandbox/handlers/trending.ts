import { type Chain, TRENDING_STRATEGIES } from "../../contract/api.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import type { TokenBase } from "../data.js";
import { HttpError } from "../http.js";
import { draw, type Handler, pageOf, paginationMeta, paid, type SandboxContext } from "./context.js";

type Metrics = Record<string, string>;
const metricsOf = (ctx: SandboxContext, token: TokenBase) =>
  ctx.data.marketRecord(token).token_metrics as Metrics;

/** What each strategy ranks by: mcap the default, volume with staking or with smart money. */
const RANK_BY: Record<
  (typeof TRENDING_STRATEGIES)[number],
  (ctx: SandboxContext, token: TokenBase) => number
> = {
  mcap: (ctx, token) => ctx.data.mcapOf(token),
  volume_and_staking: (ctx, token) =>
    Number(metricsOf(ctx, token).volume_24h) * (1 + draw(ctx, token, "staking")()),
  volume_and_smartmoney: (ctx, token) =>
    Number(metricsOf(ctx, token).volume_24h) * (1 + draw(ctx, token, "smart-money")()),
};

/** How many tokens a ranking lists. */
const RANKED = 200;

/**
 * GET /v1/trending and the newer /v1/trending-tokens: the top 200 tokens of the chain
 * by the strategy asked for, mcap when none is (the service's default); without a chain, every
 * chain's tokens ranked together. The older
 * path answers the older record (`volume`, `liquidity`, `mcap` as strings at the top level), the
 * newer one the newer record (`network`, `volume_24h_usd`, `liquidity_usd`, `market_cap_usd`,
 * `score`, numbers as numbers). The figures are the token's market figures, so `trending` and
 * `market` agree on every token.
 */
export const trending: Handler = paid((req, ctx) => {
  const strategy = req.query.param("strategy") ?? "mcap";
  if (!Object.hasOwn(RANK_BY, strategy))
    throw new HttpError(400, `strategy must be one of ${TRENDING_STRATEGIES.join(", ")}`);
  const chain = req.query.chain(ENDPOINTS.trending.chainRequired);
  const tokens = ranking(ctx, chain, strategy as keyof typeof RANK_BY);
  const newer = req.path.startsWith(ENDPOINTS.trending.newerPath);
  const size = ENDPOINTS.trending.pageSize;
  const page = pageOf(req, ctx, tokens, size);
  const record = newer ? newerRecord : olderRecord;
  return {
    body: {
      success: true,
      data: page.items.map((token, i) => record(ctx, token, (page.pagination.page - 1) * size + i + 1)),
      ...paginationMeta(ctx, page.pagination),
    },
  };
});

function olderRecord(ctx: SandboxContext, token: TokenBase, rank: number) {
  const m = metricsOf(ctx, token);
  return {
    rank,
    token_id: token.id,
    token_symbol: token.symbol,
    token_name: token.name,
    token_address: token.address,
    chain: token.chain,
    usd_price: m.usd_price,
    price_change_percentage_24h: m.price_change_percentage_24h,
    volume: m.volume_24h,
    liquidity: m.total_liquidity,
    mcap: m.mcap,
    trend_score: (RANKED + 1 - rank).toString(),
  };
}

function newerRecord(ctx: SandboxContext, token: TokenBase, rank: number) {
  const m = metricsOf(ctx, token);
  return {
    rank,
    token_id: token.id,
    token_name: token.name,
    token_symbol: token.symbol,
    token_address: token.address,
    network: token.chain,
    usd_price: Number(m.usd_price),
    volume_24h_usd: Number(m.volume_24h),
    liquidity_usd: Number(m.total_liquidity),
    market_cap_usd: Number(m.mcap),
    price_change_percentage_1h: Number(m.price_change_percentage_1h),
    price_change_percentage_24h: Number(m.price_change_percentage_24h),
    score: RANKED + 1 - rank,
  };
}

/** Rankings made, by data set, chain and strategy: the figures do not move unless markets are live. */
const RANKINGS = new WeakMap<SandboxContext["data"], Map<string, TokenBase[]>>();

/** The top RANKED tokens of a chain (of every chain, without one) by a strategy, largest first. */
function ranking(ctx: SandboxContext, chain: Chain | undefined, strategy: keyof typeof RANK_BY): TokenBase[] {
  const key = `${chain ?? "*"}:${strategy}`;
  const made = ctx.options.liveSeconds ? undefined : RANKINGS.get(ctx.data)?.get(key);
  if (made) return made;
  const by = RANK_BY[strategy];
  const ranked = ctx.data
    .list(chain, undefined)
    .map((token) => ({ token, score: by(ctx, token) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.token.chain === b.token.chain
          ? a.token.index - b.token.index
          : a.token.chain < b.token.chain
            ? -1
            : 1),
    )
    .slice(0, RANKED)
    .map(({ token }) => token);
  if (!ctx.options.liveSeconds) {
    const kept = RANKINGS.get(ctx.data) ?? new Map<string, TokenBase[]>();
    kept.set(key, ranked);
    RANKINGS.set(ctx.data, kept);
  }
  return ranked;
}
