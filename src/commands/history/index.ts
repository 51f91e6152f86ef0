import { ADDRESSES, CHAIN, IDS, MAX_PAGES_HELP, TICKERS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

export const HISTORY_METRICS = ["price", "volume", "mcap"] as const;

const flags = flagTable({
  chain: CHAIN,
  tickers: TICKERS,
  addresses: ADDRESSES,
  ids: IDS,
  since: {
    flags: "--since <day>",
    description:
      "first day: YYYY-MM-DD, or a span back from today in UTC such as 90d, 12w, 6mo or 1y (m is minutes)",
    kind: "text",
  },
  until: {
    flags: "--until <day>",
    description: "last day: YYYY-MM-DD, or a span back from today (default: today)",
    kind: "text",
  },
  metric: {
    flags: "--metric <metric>",
    description: "what the chart draws: price (default), volume or mcap",
    kind: "choice",
    choices: HISTORY_METRICS,
    what: "metric",
    cliOnly: true,
  },
  normalize: {
    flags: "--normalize",
    description: "several tokens in one chart, each as percent change from its first day",
    kind: "switch",
    cliOnly: true,
  },
  height: {
    flags: "--height <rows>",
    description: "the chart's height in rows (default: 12, fitted to the terminal; 8 each for several)",
    kind: "count",
    max: 100,
    cliOnly: true,
  },
  maxPages: { flags: "--max-pages <n>", description: MAX_PAGES_HELP, kind: "count", cliOnly: true },
  strict: {
    flags: "--strict",
    description:
      "exit 1 when a token named has no history, or the server answers for another token (the others are still printed)",
    kind: "switch",
  },
  output: OUTPUT_FLAGS.output,
  json: OUTPUT_FLAGS.json,
  ndjson: OUTPUT_FLAGS.ndjson,
  crlf: OUTPUT_FLAGS.crlf,
  ...PAYMENT_FLAGS,
});

export default defineCommand({
  name: "history",
  description: "a token's daily price, volume and market cap: a chart on a terminal, exact data in a pipe",
  flags,
  examples: [
    "tokenintel history --sandbox --chain base --tickers BAKO --since 90d",
    "tokenintel history --sandbox -c base --tickers BAKO,GUQU --since 1y --normalize",
    "tokenintel history --sandbox -c base --tickers BAKO --since 2026-01-01 --ndjson | jq -c '{date_time, usd_price}'",
  ],
  notes: `One request per token per 1,000 days, several tokens at once under the rate limit, shown in
the order named. On a terminal: a line chart of the daily USD price (--metric volume or mcap),
sized to the terminal, with the period's change, high and low above it; a series longer than the
chart is resampled, and a missing day is a gap in the line, never a zero. -o table prints the days
as a table. Into a pipe: JSON (one object per token: token_id, token_symbol, token_address, chain
and its days), NDJSON or CSV (one line per day, with the token's id and symbol), always oldest day
first, every value exactly as the service sent it. Without a key, --pay pays each page with x402
(0.005 USDC a page on the live service) under --max-payment, --max-spend and --daily-cap, and
--dry-run says what it would cost; the days read before a cap stops the run are still printed.`,
  async run(ctx, opts) {
    const { runHistory } = await import("./run.js");
    await runHistory(ctx, opts);
  },
});
