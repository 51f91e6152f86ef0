import { ENDPOINTS } from "../../contract/endpoints.js";
import { flagsColumn, holders, identity, metrics, rsi, social, updated } from "../../output/column-sets.js";
import { col } from "../../output/columns.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";

const a = identity;
const am = metrics("agent_metrics");
const ah = holders("agent_holder_insights");
const COLUMNS: TableLayout = {
  columns: [
    a.symbol,
    a.name,
    col("STATUS", "rug_status", "status"),
    am.price,
    am.h24,
    am.mcap,
    ah.count,
    ah.top10,
    social.mind7,
  ],
  wide: [am.d7, am.volume, am.liquidity, rsi, flagsColumn("agent_holder_insights"), updated],
};

export const AGENTS: DataCommandDefinition = dataCommand(ENDPOINTS.agents, {
  views: { default: COLUMNS },
  emptyMessage: "No agent tokens matched.",
});
