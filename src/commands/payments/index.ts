import { OUTPUT_FORMATS } from "../../flags/formats.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

export const PAYMENTS_FLAGS = flagTable({
  since: {
    flags: "--since <when>",
    description:
      "only payments since then: a span back from now (30m, 24h, 7d, 6mo, 1y), a UTC date (2026-01-31) or an ISO time",
    kind: "text",
    suggest: ["24h", "7d", "30d"],
  },
  byDay: {
    flags: "--by-day",
    description: "per-day totals per network (UTC days): payments, amount signed, amount settled",
    kind: "switch",
  },
  output: {
    flags: "-o, --output <format>",
    description: "output format: table, json, ndjson or csv (default: table on a terminal, json into a pipe)",
    kind: "choice",
    choices: OUTPUT_FORMATS,
    what: "output format",
  },
  json: { flags: "--json", description: "shorthand for --output json", kind: "switch" },
  ndjson: { flags: "--ndjson", description: "shorthand for --output ndjson", kind: "switch" },
  csv: { flags: "--csv", description: "shorthand for --output csv", kind: "switch" },
});

export default defineCommand({
  name: "payments",
  description: "the payment ledger: every x402 payment signed with --pay, and what became of it",
  flags: PAYMENTS_FLAGS,
  examples: [
    "tokenintel payments --since 24h --json",
    "tokenintel payments --since 2026-01-01 --by-day --json",
  ],
  notes: `Every authorization --pay signs is written to the ledger before the request that carries it
is sent, then its outcome: settled (with the transaction hash when the server sends one), refused,
or unknown (no answer was read). Amounts are exact decimal strings. The ledger is payments.jsonl in
tokenintel's data folder (TOKENINTEL_DATA_DIR, else $XDG_DATA_HOME/tokenintel); 'cache clear' never
touches it. --daily-cap (TOKENINTEL_DAILY_CAP, 'config set daily-cap 1.00') is counted from it.
Payments made with --sandbox go to payments-sandbox.jsonl beside it, never counted by the real
cap; 'tokenintel payments --sandbox' lists them.`,
  async run(ctx, opts) {
    const { runPayments } = await import("./run.js");
    await runPayments(ctx, opts);
  },
});
