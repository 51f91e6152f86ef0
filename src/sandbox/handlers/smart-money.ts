import { ENDPOINTS } from "../../contract/endpoints.js";
import { FLOW_WINDOWS } from "../../contract/shapes.js";
import { draw, type Handler, namedTokens, paid } from "./context.js";

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * GET /v1/smart-money-trends (docs/api-notes.md, "Records"): per named token on
 * Base, the net inflow and outflow of the top 50 smart-money wallets, USD and token amounts per
 * window, as JSON numbers. Not paged. The token amounts are the USD values at the token's price.
 */
export const smartMoney: Handler = paid((req, ctx) => {
  const tokens = namedTokens(req, ctx, ENDPOINTS["smart-money"]);
  return {
    body: {
      success: true,
      data: tokens.map((token) => {
        const r = draw(ctx, token, "smart-money");
        const price = Number((ctx.data.marketRecord(token).token_metrics as { usd_price: string }).usd_price);
        const flow = () => {
          const out: Record<string, number> = {};
          let usd = 0;
          for (const w of FLOW_WINDOWS) {
            usd += r() * 250_000; // each window holds the shorter one's flows, and more
            out[`usd_value_${w}`] = round(usd, 2);
            out[`token_${w}`] = round(usd / price, 4);
          }
          return out;
        };
        return {
          symbol: token.symbol,
          token_address: token.address,
          net_inflow: flow(),
          net_outflow: flow(),
        };
      }),
    },
  };
});
