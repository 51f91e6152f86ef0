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
  async run(ctx, _opts, [shell]) {
    const [{ runCompletion }, { fullProgram }] = await Promise.all([
      import("./run.js"),
      import("../../program.js"),
    ]);
    await runCompletion(ctx, shell ?? "", await fullProgram());
  },
});
