import { defineCommand } from "../command.js";

export default defineCommand({
  name: "version",
  description:
    "print the version; with --verbose, what a bug report needs (Node, platform, config, cache and data paths)",
  flags: {},
  examples: ["tokenintel version", "tokenintel version --verbose"],
  notes: "tokenintel --version --verbose is the same as version --verbose.",
  async run(ctx) {
    const [{ versionReport }, { VERSION }] = await Promise.all([
      import("./run.js"),
      import("../../version.js"),
    ]);
    const verbose = Boolean(ctx.settings.globals.verbose);
    await ctx.io.out(verbose ? versionReport(VERSION, ctx.settings.env) : `${VERSION}\n`);
  },
});
