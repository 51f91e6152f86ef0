import { DEFAULT_MAX_PAGES, MAX_ITEM_LENGTH } from "../contract/limits.js";
import { SETTINGS } from "./settings-table.js";
import { type Flag, flagTable } from "./table.js";

export const MAX_PAGES_HELP = `walk at most n pages (default ${DEFAULT_MAX_PAGES}); past them, what was fetched is printed and the run fails (exit 1)`;

// The flags of the data commands (market, directory, agents, ta): which tokens, how many, in what
// order. Each command picks the ones it takes.

/** --chain: the chain setting's flag (flags/settings-table.ts). */
export const CHAIN = SETTINGS.chain.flag;

export const TICKERS = {
  flags: "--tickers <list>",
  description:
    "comma-separated tickers (one $ in front is dropped; repeatable; a comma inside a ticker is \\,); @file or - reads them from a file or stdin",
  kind: "list",
} as const satisfies Flag;

export const RESOLVE = {
  flags: "--resolve",
  description:
    "turn --tickers into addresses from the local token index (directory --sync) and select by address: no ticker lookup on the server, every token sharing a ticker included",
  kind: "switch",
  cliOnly: true,
} as const satisfies Flag;

export const ADDRESSES = {
  flags: "--addresses <list>",
  description:
    "comma-separated contract or mint addresses (repeatable); @file or - reads them from a file or stdin",
  kind: "list",
} as const satisfies Flag;

export const IDS = {
  flags: "--ids <list>",
  description: "comma-separated token ids (repeatable); @file or - reads them from a file or stdin",
  kind: "list",
} as const satisfies Flag;

export const WHERE = {
  flags: "--where <path><op><value>",
  description:
    "keep records where a dot path compares: = != > >= < <= or ~ (substring, any case); numbers exactly (1000, .5, 1e6, 1_000, 2.5k, 1M, $100), true/false in any case, null = missing (repeatable: all must hold)",
  kind: "repeated",
} as const satisfies Flag;

export const PAGING_FLAGS = flagTable({
  ecosystem: {
    flags: "-e, --ecosystem <name>",
    description: "ecosystem filter, passed through as given (e.g. virtuals)",
    kind: "text",
    max: MAX_ITEM_LENGTH,
    suggest: ["virtuals"],
  },
  limit: {
    flags: "-l, --limit <n>",
    description: "stop after n records (requests only the pages needed)",
    kind: "count",
    cliOnly: true,
  },
  page: { flags: "--page <n>", description: "fetch exactly this one page", kind: "count", cliOnly: true },
  maxPages: { flags: "--max-pages <n>", description: MAX_PAGES_HELP, kind: "count", cliOnly: true },
  sort: {
    flags: "--sort <field[:asc|desc]>",
    description:
      "sort by any dot path (numbers exactly); with --limit, every page is read first, so the top n is the real top n",
    kind: "text",
  },
  where: WHERE,
});

/** --sort where records carry rug_status (agents): its values sort by severity, not by name. */
export const SORT_WITH_RUG_STATUS = {
  ...PAGING_FLAGS.sort,
  description:
    "sort by any dot path (numbers exactly, rug_status by severity); with --limit, every page is read first, so the top n is the real top n",
} as const satisfies Flag;

/** --strict for a command whose lists are `lists` ("--addresses", "--tickers/--addresses/--ids"). */
export function strictFlag(lists: string) {
  return {
    flags: "--strict",
    description: `exit 1 when an item of ${lists} matches nothing (the matches are still printed)`,
    kind: "switch",
  } as const satisfies Flag;
}

export const WATCH = {
  flags: "-w, --watch [interval]",
  description:
    "refresh every interval (default 10s; never faster than the quota allows): a table redrawn in place on a terminal, NDJSON lines into a pipe",
  kind: "optionalDuration",
  cliOnly: true,
} as const satisfies Flag;

/** --watch and what goes with it, for the data commands that can watch. */
export const WATCH_FLAGS = flagTable({
  watch: WATCH,
  count: {
    flags: "--count <n>",
    description: "with --watch: stop after n refreshes (exit 0)",
    kind: "count",
    cliOnly: true,
  },
  changes: {
    flags: "--changes",
    description: "with --watch: only the records that changed since the last refresh (all on the first)",
    kind: "switch",
    cliOnly: true,
  },
  diff: {
    flags: "--diff",
    description:
      "with --watch: into a pipe, one NDJSON line per changed field {at, id, symbol, field, from, to} (values exact; --fields picks the fields watched); on a terminal, a line under the table says what changed",
    kind: "switch",
    cliOnly: true,
  },
});

/** Which tokens, by list: what market, agents and ta take (directory takes addresses alone). */
export const TOKEN_LIST_FLAGS = flagTable({
  tickers: TICKERS,
  resolve: RESOLVE,
  addresses: ADDRESSES,
  ids: IDS,
  strict: strictFlag("--tickers/--addresses/--ids"),
});
