import { defineCommand } from "../command.js";

// `tokenintel __complete tickers <prefix> [chain] [sandbox]` and `__complete paths <prefix> "" ""
// <command>`: what the completion scripts call on Tab. Hidden from help. Tickers come from the local
// token index only (never the network, never the config store), dot paths from the command's record
// shape; one a line; any failure prints nothing.

export default defineCommand({
  name: "__complete",
  description: "values for shell completion, from the local token index (used by the completion scripts)",
  flags: {},
  args: [
    { name: "<what>", description: "tickers" },
    { name: "[prefix]", description: "what was typed so far" },
    { name: "[chain]", description: "base or solana (default: both)" },
    { name: "[source]", description: "sandbox: the sandbox's index (the line has --sandbox)" },
    { name: "[command]", description: "paths: the command whose records' dot paths to offer" },
  ],
  async run(ctx, _opts, [what, prefix, chain, source, command]) {
    const { completeValues } = await import("./run.js");
    const lines = completeValues(what ?? "", prefix ?? "", chain, ctx.io.env, source === "sandbox", command);
    if (lines.length) await ctx.io.out(`${lines.join("\n")}\n`);
  },
});
