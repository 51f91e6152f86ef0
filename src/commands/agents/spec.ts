import { AGENT_RECORD } from "../../api/fields.js";
import { flagsColumn, holders, identity, metrics, rsi, social, updated } from "../../output/column-sets.js";
import { col } from "../../output/columns.js";
import { PAGE_SIZES } from "../../spec/api.js";
import type { DataCommandSpec, TableLayout } from "../data/spec.js";

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

export const AGENTS: DataCommandSpec = {
  name: "agents",
  endpoint: { path: "/v1/agents", kind: "agents", pageSize: PAGE_SIZES.agents },
  shape: AGENT_RECORD,
  table: { views: { default: COLUMNS }, defaultView: "default" },
  selectors: { ticker: "agent_tickers", address: "agent_addresses", id: "agent_ids" },
  chainRequired: true,
  emptyMessage: "No agent tokens matched.",
};
