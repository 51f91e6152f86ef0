import { CHAIN, PAGING_FLAGS, TOKEN_LIST_FLAGS, WATCH_FLAGS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { type FlagValues, flagTable } from "../../flags/table.js";

/** Every flag a data command can take; each command's table is a subset of this one. */
export const ALL_DATA_FLAGS = flagTable({
  chain: CHAIN,
  ...TOKEN_LIST_FLAGS,
  ...PAGING_FLAGS,
  view: { flags: "--view <view>", description: "column set", kind: "text", cliOnly: true },
  strategy: { flags: "--strategy <strategy>", description: "trending's ranking", kind: "text" },
  activities: { flags: "--activities", description: "staking's activities", kind: "switch", cliOnly: true },
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

/** The options the data engine reads: any data command's parsed flags. */
export type DataOptions = FlagValues<typeof ALL_DATA_FLAGS>;
export type OutputOptions = FlagValues<typeof OUTPUT_FLAGS>;
