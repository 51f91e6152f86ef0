import { TRENDING_STRATEGIES } from "../../contract/api.js";
import { CHAIN, PAGING_FLAGS, WATCH_FLAGS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";

const flags = flagTable({
  chain: {
    ...CHAIN,
    description:
      "base or solana; without it (and no default chain set), every chain's tokens are ranked together (--wide shows each one's chain)",
  },
  strategy: {
    flags: "--strategy <strategy>",
    description: "how the service ranks: mcap (its default), volume_and_staking or volume_and_smartmoney",
    kind: "choice",
    choices: TRENDING_STRATEGIES,
    what: "strategy",
  },
  ...PAGING_FLAGS,
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

const definition = () => import("./definition.js").then(({ TRENDING }) => TRENDING);

export default defineCommand({
  name: "trending",
  description: "the tokens trending now, ranked: price, 24h change, volume, liquidity and market cap",
  flags,
  examples: [
    "tokenintel trending --sandbox --chain base --limit 10",
    "tokenintel trending --sandbox -c base --where 'liquidity>100000' --sort volume:desc --limit 5",
    "tokenintel trending --sandbox -c solana --ndjson --limit 3 | jq -c '{rank, token_symbol, mcap}'",
    "tokenintel trending --sandbox -c base --strategy volume_and_smartmoney --limit 5",
  ],
  definition,
  run: runsDefinition(definition),
});
