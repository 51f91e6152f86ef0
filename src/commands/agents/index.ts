import {
  CHAIN,
  PAGING_FLAGS,
  SORT_WITH_RUG_STATUS,
  TOKEN_LIST_FLAGS,
  WATCH_FLAGS,
} from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";

const flags = flagTable({
  chain: CHAIN,
  ...TOKEN_LIST_FLAGS,
  ...PAGING_FLAGS,
  sort: SORT_WITH_RUG_STATUS,
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

const definition = () => import("./definition.js").then(({ AGENTS }) => AGENTS);

export default defineCommand({
  name: "agents",
  description: "agent tokens with their rug status, metrics and insights",
  flags,
  examples: [
    "tokenintel agents --sandbox --chain base --limit 10",
    "tokenintel agents -c base --tickers AIXBT --json | jq '.[0].rug_status'",
    "tokenintel agents -c base --sort agent_metrics.mcap:desc --fields agent_info.symbol,rug_status,agent_metrics.mcap",
  ],
  definition,
  run: runsDefinition(definition),
});
