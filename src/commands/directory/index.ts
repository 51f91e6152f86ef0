import { ADDRESSES, CHAIN, PAGING_FLAGS, strictFlag } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";
import { runsDefinition } from "../data/command.js";

export const DIRECTORY_FLAGS = flagTable({
  chain: CHAIN,
  addresses: ADDRESSES,
  strict: strictFlag("--addresses"),
  ...PAGING_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
  sync: {
    flags: "--sync",
    description:
      "store the whole directory (symbol, name, address, id, ecosystem) as the local token index, for ticker completion and --resolve; one chain with --chain, else both",
    kind: "switch",
    cliOnly: true,
  },
});

const definition = () => import("./definition.js").then(({ DIRECTORY }) => DIRECTORY);

export default defineCommand({
  name: "directory",
  description: "the paginated directory of indexed tokens (id, symbol, name, address, chain, ecosystem)",
  flags: DIRECTORY_FLAGS,
  examples: [
    "tokenintel directory --sandbox --chain base --limit 20",
    "tokenintel directory -c solana --ecosystem virtuals -o csv > directory.csv",
    "tokenintel directory -c base --sort symbol --fields symbol,name,address --limit 5",
  ],
  notes: `Token index (--sync): 'tokenintel directory --sync' stores both chains ('-c base' one), one
file a chain in the cache folder (TOKENINTEL_CACHE_DIR, else the platform's, e.g.
~/.cache/tokenintel/index/), readable by you alone; run it again to refresh it. With it, shell
completion offers tickers for --tickers without a request, a ticker several tokens share is named
with their addresses, and --resolve (market, ta, agents) turns --tickers into addresses.
'tokenintel config list' says how old it is. With --sandbox the sandbox's tokens are kept apart
(index-sandbox/) and used only with --sandbox.`,
  async run(ctx, opts) {
    if (opts.sync) {
      const { runSync } = await import("./sync.js");
      return runSync(ctx, opts);
    }
    await runsDefinition(definition)(ctx, opts);
  },
  definition,
});
