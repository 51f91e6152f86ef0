import {
  DEFAULT_MAX_BODY_BYTES,
  formatBytes,
  MAX_BODY_CAP_BYTES,
  MAX_JSON_DEPTH,
} from "../contract/limits.js";
import { settingFlags } from "./settings-table.js";
import { flagTable } from "./table.js";

/** Flags every command accepts, set on the program and checked before any command runs. */
export const GLOBAL_FLAGS = flagTable({
  apiKey: {
    flags: "--api-key <key>",
    description:
      "API key for this run (prefer 'auth login' or TOKENINTEL_API_KEY: flags show up in shell history)",
    kind: "text",
  },
  sandbox: {
    flags: "--sandbox",
    description: "run against a local sandbox API started for this command (no account, no network)",
    kind: "switch",
  },
  // --base-url, --timeout, --retries, --cache: the settings of the global group.
  ...settingFlags("global"),
  rate: {
    flags: "--rate <n/min>",
    description: "at most this many requests a minute, e.g. 90/min",
    kind: "rate",
  },
  concurrency: {
    flags: "--concurrency <n>",
    description: "requests in flight at once (default 4)",
    kind: "count",
    what: "from 1 to 32",
    max: 32,
  },
  maxBody: {
    flags: "--max-body <size>",
    description: `refuse a response larger than this, e.g. 64MB or 512KiB (default ${formatBytes(DEFAULT_MAX_BODY_BYTES, true)}, at most ${formatBytes(MAX_BODY_CAP_BYTES, true)}); JSON nested deeper than ${MAX_JSON_DEPTH} levels is always refused`,
    kind: "size",
  },
  verbose: {
    flags: "-v, --verbose",
    description: "log each request (key redacted) and full errors to stderr",
    kind: "switch",
  },
  quiet: {
    flags: "-q, --quiet",
    description: "say nothing on stderr but errors and warnings",
    kind: "switch",
  },
  pager: {
    flags: "--no-pager",
    description: "do not page long tables on a terminal (default: $TOKENINTEL_PAGER, $PAGER or less -FRX)",
    kind: "switch",
  },
  color: {
    flags: "--color <when>",
    description: "colour: auto (a terminal, unless NO_COLOR), always or never",
    kind: "choice",
    choices: ["auto", "always", "never"],
    what: "colour mode",
    negation: { flags: "--no-color", description: "never colour the output (same as --color never)" },
  },
});
