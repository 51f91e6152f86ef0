import { CHAIN } from "../../flags/data.js";
import { OUTPUT_FLAGS } from "../../flags/output.js";
import { flagTable } from "../../flags/table.js";
import { defineCommand } from "../command.js";

const flags = flagTable({ chain: { ...CHAIN, description: "base or solana (optional)" }, ...OUTPUT_FLAGS });

export default defineCommand({
  name: "ask",
  description: "ask a question in plain language; prints the answer and the tokens it names",
  flags,
  args: [
    {
      name: "[question]",
      description:
        "the question (required unless --fields is given alone), or - to read it from standard input",
    },
  ],
  notes:
    "Write tickers with a $ in front ($AIXBT), as the provider advises, and quote the question in single quotes so the shell leaves the $ alone.",
  examples: [
    "tokenintel ask --sandbox 'how is $BAKO doing today?'",
    "echo 'top agent tokens by volume' | tokenintel ask - --chain base --json | jq .nlpResponse",
  ],
  async run(ctx, opts, [question]) {
    const { runAsk } = await import("./run.js");
    await runAsk(ctx, question ?? "", opts);
  },
});
