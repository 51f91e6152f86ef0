import { settingNames, settingsHelp } from "../../flags/settings-table.js";
import { defineCommand } from "../command.js";

type Action = "get" | "set" | "unset" | "list" | "path";

const action = (name: Action, args: Array<[string, string, (readonly string[])?]>, description: string) =>
  defineCommand({
    name,
    description,
    flags: {},
    args: args.map(([argName, argDescription, values]) => ({
      name: argName,
      description: argDescription,
      values,
    })),
    async run(ctx, _opts, [key, value]) {
      const { runConfig } = await import("./run.js");
      await runConfig(ctx, name, key, value);
    },
  });

const KEY: [string, string, readonly string[]] = [
  "<key>",
  `a setting: ${settingNames().join(", ")}`,
  settingNames(),
];

export default defineCommand({
  name: "config",
  description: `read and change settings: ${settingNames().join(", ")}`,
  flags: {},
  examples: ["tokenintel config set chain base", "tokenintel config get chain", "tokenintel config list"],
  notes: `Settings (a run reads its flag, else its environment variable, else the store):\n${settingsHelp()}`,
  subcommands: [
    action("get", [KEY], "print a setting"),
    action("set", [KEY, ["<value>", "its new value"]], "change a setting"),
    action("unset", [KEY], "remove a setting"),
    action(
      "list",
      [],
      "print every setting's effective value and where it comes from: flag, env, config or default",
    ),
    action("path", [], "print the config file's path"),
  ],
});
