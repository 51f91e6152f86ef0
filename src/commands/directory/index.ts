import { ADDRESSES, CHAIN, PAGING_FLAGS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const flags = flagTable({
  chain: CHAIN,
  addresses: ADDRESSES,
  ...PAGING_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

export default defineCommand({
  name: "directory",
  description: "the paginated directory of indexed tokens (id, symbol, name, address, chain, ecosystem)",
  flags,
  examples: [
    "tokenintel directory --sandbox --chain base --limit 20",
    "tokenintel directory -c solana --ecosystem virtuals -o csv > directory.csv",
    "tokenintel directory -c base --sort symbol --fields symbol,name,address --limit 5",
  ],
  async run(ctx, opts) {
    const [{ runDataCommand }, { DIRECTORY }] = await Promise.all([
      import("../data/run.js"),
      import("./spec.js"),
    ]);
    await runDataCommand(ctx, DIRECTORY, opts);
  },
});
