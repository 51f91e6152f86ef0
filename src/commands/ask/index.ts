import { ENDPOINTS } from "../../contract/endpoints.js";
import { CHAIN } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const ANALYSIS = ENDPOINTS["market-analysis"];

const flags = flagTable({
  chain: { ...CHAIN, description: "base or solana (optional)" },
  ...OUTPUT_FLAGS,
  ...PAYMENT_FLAGS,
  explain: {
    flags: "--explain",
    description:
      "after the answer, the market figures of the tokens it names (its token details, else the $TICKERS in the question; the first 30): price, 24h change, market cap, liquidity, holders and the risk verdict; --json gives {answer, tokens}",
    kind: "switch",
  },
  deep: {
    flags: "--deep",
    description: `the provider's written market analysis instead (POST ${ANALYSIS.path}): markdown, in 5-15 s; with --pay it costs ${ANALYSIS.price} USDC a question, so it needs --max-payment ${ANALYSIS.price}`,
    kind: "switch",
  },
  fields: {
    ...OUTPUT_FLAGS.fields,
    description:
      "keep only these, in every format: nlpResponse, questionId, answerId, tokenDetails, or fields of each token detail (market_cap or tokenDetails.market_cap); alone, lists them",
  },
});

export default defineCommand({
  name: "ask",
  description: "ask a question in plain language; prints the answer and the tokens it names",
  flags,
  args: [
    {
      name: "[question...]",
      description:
        "the question (required unless --fields is given alone; unquoted words are joined with spaces), or - to read it from standard input",
    },
  ],
  notes:
    "Write tickers with a $ in front ($AIXBT), as the provider advises, and quote the question in single quotes so the shell leaves the $ alone.\n\n--fields selects the same things in every format. JSON and NDJSON print the answer with only the named keys (tokenDetails cut to the named detail fields); the table prints the answer text when nlpResponse is named, questionId/answerId as lines, and the named detail fields as columns; CSV has a row per token detail, with the named answer keys as leading columns.\n\n--deep asks for the provider's written analysis (a few paragraphs of markdown, no token details): rendered on a terminal, as written in a pipe, {nlpResponse} with --json. It sends the question alone (no --chain, --explain or columns). With --pay, a question costing more than --max-payment, --max-spend or the daily cap allow is refused before anything is signed (exit 5).",
  examples: [
    "tokenintel ask --sandbox 'how is $BAKO doing today?'",
    "echo 'top agent tokens by volume' | tokenintel ask - --chain base --json | jq .nlpResponse",
    "tokenintel ask --sandbox 'is $BAKO safe?' --chain base --explain",
    "tokenintel ask --sandbox 'how is $BAKO doing?' --chain base --explain --json | jq '.tokens[] | {symbol, price, risk}'",
    "tokenintel ask --sandbox --deep 'should I watch $AERO or $DEGEN this week?'",
  ],
  async run(ctx, opts, words) {
    const { runAsk } = await import("./run.js");
    // `ask what is trending` asks "what is trending", as gh joins the words of a search.
    await runAsk(ctx, words.join(" "), opts);
  },
});
