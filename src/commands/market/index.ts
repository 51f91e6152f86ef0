import { CHAIN, PAGING_FLAGS, TOKEN_LIST_FLAGS, WATCH_FLAGS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";
import { MARKET_VIEWS } from "./views.js";

const flags = flagTable({
  chain: CHAIN,
  ...TOKEN_LIST_FLAGS,
  ...PAGING_FLAGS,
  view: {
    flags: "--view <view>",
    description: "column set: overview, holders, risk, social or dev",
    kind: "choice",
    choices: MARKET_VIEWS,
    what: "view",
    cliOnly: true,
  },
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

const definition = () => import("./definition.js").then(({ MARKET }) => MARKET);

export default defineCommand({
  name: "market",
  description: "market, technical, holder, smart-money, dev-wallet and social data for tokens",
  flags,
  examples: [
    "tokenintel market --sandbox --chain base --ecosystem virtuals --limit 10",
    "tokenintel market -c base --tickers AERO,DEGEN --json | jq '.[].token_metrics.usd_price'",
    "tokenintel market -c solana --ecosystem virtuals --ndjson > virtuals.ndjson",
    "tokenintel market -c base -e virtuals --sort token_metrics.mcap:desc --fields token_info.symbol,token_metrics.mcap",
  ],
  definition,
  run: runsDefinition(definition),
});
