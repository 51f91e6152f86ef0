import { CHAIN, PAGING_FLAGS, TOKEN_LIST_FLAGS, WATCH_FLAGS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";
import { TA_VIEWS } from "./views.js";

const flags = flagTable({
  chain: { ...CHAIN, description: "base or solana (optional)" },
  ...TOKEN_LIST_FLAGS,
  ...PAGING_FLAGS,
  view: {
    flags: "--view <view>",
    description: "the indicator in the grid's cells: change (default), rsi, support, resistance or sma",
    kind: "choice",
    choices: TA_VIEWS,
    what: "view",
    cliOnly: true,
  },
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

const definition = () => import("./definition.js").then(({ TA }) => TA);

export default defineCommand({
  name: "ta",
  description:
    "multi-interval technical analysis: price change, RSI, support, resistance and SMA over 1m to 1w (changes to 30d)",
  flags,
  examples: [
    "tokenintel ta --sandbox --chain base --limit 10",
    "tokenintel ta -c base --tickers VIRTUAL --json",
    "tokenintel ta -c base --tickers VIRTUAL,AIXBT --fields token_info.symbol,technical_indicators.rsi_1h",
  ],
  definition,
  run: runsDefinition(definition),
});
