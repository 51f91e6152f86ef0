import { ADDRESSES, PAGING_FLAGS, strictFlag, TICKERS, WATCH_FLAGS } from "./data.js";
import { OUTPUT_FLAGS } from "./output.js";
import { PAYMENT_FLAGS } from "./payment.js";
import { type Flag, flagTable } from "./table.js";

// The flags of the commands whose records are the answer to a list of tokens, unpaged (the Base
// endpoints that require one): which tokens, how many and in what order, watching, output, paying.

const { limit, sort, where } = PAGING_FLAGS;

/**
 * -c/--chain on a command of one chain (Base): taken out of habit, sent nowhere (the endpoint takes
 * no chain); another chain is refused, naming Base. No tool takes it.
 */
export const BASE_ONLY_CHAIN = {
  flags: "-c, --chain <chain>",
  description: "base, the only chain this endpoint serves (optional)",
  kind: "choice",
  choices: ["base"] as const,
  what: "chain",
  expected: "base (Base is the only chain this endpoint serves)",
  cliOnly: true,
} as const satisfies Flag;

/** --tickers, --addresses and --strict: the list (at least one, the command checks). */
export const BY_TICKER_OR_ADDRESS_FLAGS = flagTable({
  tickers: TICKERS,
  addresses: ADDRESSES,
  strict: strictFlag("--tickers/--addresses"),
});

/** What follows the list: --limit, --sort, --where, the watch, output and payment flags. */
export const LIST_ANSWER_FLAGS = flagTable({
  limit,
  sort,
  where,
  ...WATCH_FLAGS,
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
});
