import { defineCommand } from "../command.js";
import { SHELLS } from "./shells.js";

export default defineCommand({
  name: "completion",
  description: `print a shell completion script: ${SHELLS.join(", ")}`,
  flags: {},
  args: [{ name: "<shell>", description: "bash, zsh or fish", values: SHELLS }],
  examples: [
    "source <(tokenintel completion bash)        # in ~/.bashrc",
    "source <(tokenintel completion zsh)         # in ~/.zshrc",
    "tokenintel completion fish > ~/.config/fish/completions/tokenintel.fish",
  ],
  notes:
    "With a token index ('tokenintel directory --sync'), --tickers completes tickers from it, on the chain given with -c (both without): a Tab never makes a request.",
  async run(ctx, _opts, [shell]) {
    const { runCompletion } = await import("./run.js");
    await runCompletion(ctx, shell ?? "", await ctx.program());
  },
});
