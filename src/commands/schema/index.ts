import { defineCommand } from "../command.js";

export default defineCommand({
  name: "schema",
  description:
    "the whole command surface as JSON, for programs and agents: commands, options, the fields each returns",
  flags: {},
  args: [{ name: "[command...]", description: "only this command (e.g. market, or auth login)" }],
  examples: [
    "tokenintel schema | jq '.commands[].name'",
    "tokenintel schema market | jq -r '.returns.fields[].path'",
    "tokenintel schema | jq '.commands[] | select(.name == \"history\") | .options[] | {name, type, choices}'",
  ],
  notes: `Made from the same tables as --help, completion and the MCP tools: every command and
subcommand, its arguments, each option with its type, value, default, allowed values and whether it
repeats, the global options, and what a command returns: the dot paths of its records with their
kind (data commands), or the JSON Schema of its answer (check, history, ask). The MCP tool of the
same name is named where there is one.`,
  async run(ctx, _opts, path) {
    const { runSchema } = await import("./run.js");
    await runSchema(ctx, path);
  },
});
