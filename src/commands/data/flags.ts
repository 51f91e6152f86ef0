import { CHAIN, PAGING_FLAGS, TOKEN_LIST_FLAGS, WATCH_FLAGS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { type FlagValues, flagTable } from "../../flags/table.js";

/**
 * The flags the data engine reads, of any data command's table; a flag one command alone has
 * (a ranking, a switch to the rows a record holds) stays in that command's table, and reaches the
 * engine, if at all, through its definition (`params`, `rows`).
 */
export const ALL_DATA_FLAGS = flagTable({
  chain: CHAIN,
  ...TOKEN_LIST_FLAGS,
  ...PAGING_FLAGS,
  view: { flags: "--view <view>", description: "column set", kind: "text", cliOnly: true },
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});

/** The options the data engine reads: any data command's parsed flags. */
export type DataOptions = FlagValues<typeof ALL_DATA_FLAGS>;
export type OutputOptions = FlagValues<typeof OUTPUT_FLAGS>;
