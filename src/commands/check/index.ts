import { ENDPOINTS } from "../../contract/endpoints.js";
import { ADDRESSES, CHAIN, IDS, TICKERS } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { alignColumns } from "../../output/width.js";
import { thresholdRows } from "../../risk/rules.js";
import { defineCommand } from "../command.js";

const MARKET_PATH = ENDPOINTS.market.path;
const AGENTS_PATH = ENDPOINTS.agents.path;

const flags = flagTable({
  chain: CHAIN,
  tickers: TICKERS,
  addresses: ADDRESSES,
  ids: IDS,
  failOn: {
    flags: "--fail-on <level>",
    description: "exit 3 when any token reaches this level: medium or high",
    kind: "choice",
    choices: ["medium", "high"],
    what: "risk level",
    cliOnly: true,
  },
  output: OUTPUT_FLAGS.output,
  json: OUTPUT_FLAGS.json,
  ndjson: OUTPUT_FLAGS.ndjson,
  ...PAYMENT_FLAGS,
});

export default defineCommand({
  name: "check",
  description: "a risk verdict per token (low, medium, high) and the fields behind it, for scripts",
  flags,
  examples: [
    "tokenintel check --sandbox -c base --tickers AERO,DEGEN,BRETT",
    "tokenintel check --sandbox -c base --tickers AERO --fail-on high && echo 'AERO passes'",
    "tokenintel check --sandbox -c base --tickers VIRTUAL,LUNA --json | jq '.[] | {symbol, level}'",
  ],
  // A getter: the rules' table is laid out when help is shown, not at every run's start (measuring
  // its cells as a terminal draws them compiles Unicode tables, ~2 ms).
  get notes() {
    return `check reads two endpoints for the tokens named, one request each for every 30 tokens: the
market (${MARKET_PATH}) for the figures the rules read, and the agents (${AGENTS_PATH}) for the
service's own rug status. A token the agents endpoint does not know is judged without it, and its
row says so. With --pay each request costs ${ENDPOINTS.market.price} USDC (market) and ${ENDPOINTS.agents.price} USDC (agents).

A token's level is the highest any rule gives it; low when none applies. Values are compared
exactly from their digits; a value at a threshold reaches it.

${alignColumns(thresholdRows())}

Exit codes: 0 ok; 3 with --fail-on when any token reaches that level; 1 when a token named has no
data (no verdict is given for it); 2 usage; 4 auth.`;
  },
  // check reads market and agents: a verdict of tokenintel's own, not an endpoint's, so its tool is its own.
  tool: {
    name: "check",
    title: "Token risk verdict",
    description:
      "A risk verdict per token (low, medium, high) and the rules behind it: holder concentration, dev selling, bundles, liquidity, the service's rug status.",
    required: ["chain"],
    needsTokens: true,
  },
  async run(ctx, opts) {
    const { runCheck } = await import("./run.js");
    await runCheck(ctx, opts);
  },
});
