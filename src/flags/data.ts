import { DEFAULT_MAX_PAGES } from "../api/limits.js";
import { CHAINS } from "../spec/api.js";
import { type Flag, flagTable } from "./table.js";

export const MAX_PAGES_HELP = `walk at most n pages (default ${DEFAULT_MAX_PAGES}); past them, what was fetched is printed and the run fails (exit 1)`;

// The flags of the data commands (market, directory, agents, ta): which tokens, how many, in what
// order. Each command picks the ones it takes.

export const CHAIN = {
  flags: "-c, --chain <chain>",
  description: "base or solana (required unless set with 'config set chain')",
  kind: "choice",
  choices: CHAINS,
  what: "chain",
} as const satisfies Flag;

export const TICKERS = {
  flags: "--tickers <list>",
  description: "comma-separated tickers (repeatable; write a comma inside a ticker as \\,)",
  kind: "list",
} as const satisfies Flag;

export const ADDRESSES = {
  flags: "--addresses <list>",
  description: "comma-separated contract or mint addresses (repeatable)",
  kind: "list",
} as const satisfies Flag;

export const IDS = {
  flags: "--ids <list>",
  description: "comma-separated token ids (repeatable)",
  kind: "list",
} as const satisfies Flag;

export const PAGING_FLAGS = flagTable({
  ecosystem: {
    flags: "-e, --ecosystem <name>",
    description: "ecosystem filter, passed through as given (e.g. virtuals)",
    kind: "text",
    suggest: ["virtuals"],
  },
  limit: {
    flags: "-l, --limit <n>",
    description: "stop after n records (requests only the pages needed)",
    kind: "count",
  },
  page: { flags: "--page <n>", description: "fetch exactly this one page", kind: "count" },
  maxPages: { flags: "--max-pages <n>", description: MAX_PAGES_HELP, kind: "count" },
  sort: {
    flags: "--sort <field[:asc|desc]>",
    description: "sort by a dot path of the records (numbers compared exactly); :desc for largest first (see the examples)",
    kind: "text",
  },
});

export const WATCH = {
  flags: "-w, --watch [interval]",
  description: "redraw every interval (default 10s; never faster than the quota allows)",
  kind: "optionalDuration",
} as const satisfies Flag;
