import { ADDRESSES, CHAIN, PAGING_FLAGS, TICKERS, WATCH } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const flags = flagTable({
  chain: { ...CHAIN, description: "base or solana (optional)" },
  tickers: TICKERS,
  addresses: ADDRESSES,
  ...PAGING_FLAGS,
  watch: WATCH,
  ...OUTPUT_FLAGS,
});

export default defineCommand({
  name: "ta",
  description: "multi-interval technical analysis: price change over 1m, 5m, 15m, 1h, 4h, 1d, 1w and 30d",
  flags,
  examples: [
    "tokenintel ta --sandbox --chain base --limit 10",
    "tokenintel ta -c base --tickers VIRTUAL --json",
  ],
  async run(ctx, opts) {
    const [{ runDataCommand }, { TA }] = await Promise.all([import("../data/run.js"), import("./spec.js")]);
    await runDataCommand(ctx, TA, opts);
  },
});
