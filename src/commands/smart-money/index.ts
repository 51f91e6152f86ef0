import { flagTable } from "../../flags/table.js";
import { BASE_ONLY_CHAIN, BY_TICKER_OR_ADDRESS_FLAGS, LIST_ANSWER_FLAGS } from "../../flags/token-lists.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";

export const SMART_MONEY_FLAGS = flagTable({
  chain: BASE_ONLY_CHAIN,
  ...BY_TICKER_OR_ADDRESS_FLAGS,
  ...LIST_ANSWER_FLAGS,
});

const definition = () => import("./definition.js").then(({ SMART_MONEY }) => SMART_MONEY);

export default defineCommand({
  name: "smart-money",
  description:
    "net inflow and outflow of the top 50 smart-money wallets per token on Base, over 24h, 7d and 30d",
  flags: SMART_MONEY_FLAGS,
  examples: [
    "tokenintel smart-money --sandbox --tickers VIRTUAL,AIXBT",
    "tokenintel smart-money --sandbox --tickers VIRTUAL,AIXBT --wide",
    "tokenintel smart-money --sandbox --tickers VIRTUAL,AIXBT --sort net_inflow.usd_value_24h:desc --json",
    "tokenintel smart-money --sandbox --tickers VIRTUAL,AIXBT,GAME --where 'net_inflow.usd_value_7d>1000' --ndjson",
  ],
  notes: `Names the tokens with --tickers or --addresses (at least one; 30 a request, a longer list is
split and merged in the order given). The table's NET is inflow − outflow in USD, computed exactly;
JSON and NDJSON carry the records as the service sent them. Base only: the endpoint takes no chain (-c base is taken, another chain refused).`,
  definition,
  run: runsDefinition(definition),
});
