import { ECOSYSTEM, PAGE_SIZES } from "../../spec/api.js";
import { type Handler, keyedListing } from "./context.js";

/** GET /v1/agents (api.md §4.3): agent tokens, all in the ecosystem. */
export const agents: Handler = keyedListing({
  chainRequired: true,
  selectors: { tickers: "agent_tickers", addresses: "agent_addresses", ids: "agent_ids" },
  pageSize: PAGE_SIZES.agents,
  record: (ctx, t) => ctx.data.agentRecord(t),
  only: (t) => t.ecosystem === ECOSYSTEM,
});
