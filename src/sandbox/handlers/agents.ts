import { ECOSYSTEM } from "../../contract/api.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { type Handler, keyedListing } from "./context.js";

/** GET /v1/agents: agent tokens, all in the ecosystem. */
export const agents: Handler = keyedListing({
  endpoint: ENDPOINTS.agents,
  record: (ctx, token) => ctx.data.agentRecord(token),
  only: (token) => token.ecosystem === ECOSYSTEM,
});
