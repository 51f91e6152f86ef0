import { ENDPOINTS } from "../../contract/endpoints.js";
import { formatCompact } from "../../output/format.js";
import { draw, type Handler, namedTokens, paid } from "./context.js";

const USER_TYPES = ["regular", "regular", "smart_money_user", "regular", "dev"] as const;
/** Six significant digits: the sandbox's small-cap prices go down to 1e-8. */
const round = (value: number) => Number(value.toPrecision(6));
/** "3.4M", as the service formats net_staked (docs/api-notes.md, "Records"). */
const short = (value: number) => formatCompact(value.toFixed(12)).replace(/(\.\d)\d+/, "$1");

/**
 * GET /v1/stake-trends, and the newer /v1/staking-intelligence: per named token on
 * Base, staking details, the last 24h, and recent activities. The older path writes `tvl`, the
 * newer `tvl_usd`; `net_staked` and `net_staked_usd` are formatted strings ("3.4M", "29.4K").
 */
export const staking: Handler = paid((req, ctx) => {
  const newer = req.path.startsWith(ENDPOINTS.staking.newerPath);
  const tokens = namedTokens(req, ctx, ENDPOINTS.staking);
  return {
    body: {
      success: true,
      data: tokens.map((token) => {
        const r = draw(ctx, token, "staking");
        const m = ctx.data.marketRecord(token).token_metrics as Record<string, string>;
        const price = Number(m.usd_price);
        // A share of the tokens in circulation is staked: the TVL is that share of the market cap.
        const stakedShare = 0.02 + r() * 0.58;
        const staked = Number(m.circulating_supply) * stakedShare;
        const holders = 100 + Math.floor(r() * 50_000);
        const stakers = Math.floor(holders * r() * 0.4);
        const withdrawn = staked * r() * 0.5;
        const details = {
          name: token.name,
          ticker: token.symbol,
          contract_address: token.address,
          latest_price: price,
          volume_usd_24h: round(staked * price * r()),
          price_change_percentage_24h: Number(m.price_change_percentage_24h),
          stake_retention_percentage: round(50 + r() * 50),
          [newer ? "tvl_usd" : "tvl"]: round(staked * price),
          net_staked: short(staked),
          net_staked_usd: short(staked * price),
          net_staked_percentage: round(stakedShare * 100),
          total_stakers: stakers,
          total_withdrawn: round(withdrawn),
          total_withdrawn_percentage: round((withdrawn / staked) * 100),
          token_holders: holders,
        };
        const count = () => Math.floor(r() * 40);
        const trends = {
          stake_count_24h: count(),
          stake_amount_24h: round(staked * r() * 0.05),
          stake_amount_usd_24h: round(staked * price * r() * 0.05),
          unstake_count_24h: count(),
          unstake_amount_24h: round(staked * r() * 0.05),
          unstake_amount_usd_24h: round(staked * price * r() * 0.05),
        };
        const activities = Array.from({ length: 3 + (token.index % 4) }, (_, index) => ({
          tx_hash: `0x${(token.index * 7919 + index).toString(16).padStart(64, "0")}`,
          wallet_address: `0x${(token.index * 104_729 + index * 31).toString(16).padStart(40, "0")}`,
          action: r() < 0.6 ? "Stake" : "Unstake",
          amount: round(staked * r() * 0.01),
          timestamp: new Date(
            Date.UTC(2026, 10, 26, 3, 0, 0) - (token.index + index) * 600_000,
          ).toISOString(),
          token_address: token.address,
          user_type: USER_TYPES[(token.index + index) % USER_TYPES.length],
        }));
        return { staking_details: details, trends, staking_activities: activities };
      }),
    },
  };
});
