import type { RunContext } from "../../context.js";
import { type FieldSpec, isAbsentOk, type Shape } from "../../contract/shapes.js";
import { UsageError } from "../../errors.js";
import { GLOBAL_FLAGS } from "../../flags/global.js";
import type { Flag, FlagKind, FlagTable } from "../../flags/table.js";
import { closest } from "../../help/hints.js";
import { stringifyJson } from "../../json/exact.js";
import { VERSION } from "../../version.js";
import { type CommandModule, moduleOf } from "../command.js";
import { toolSpecOf } from "../mcp/catalog.js";
import { outputSchemaOf } from "../mcp/results.js";

// `tokenintel schema`: the command surface as data, for programs and agents, from the tables help,
// completion and the MCP tools are made from: nothing here is written twice.

/** The JSON type of each kind of flag value, as a program reads it after parsing. */
const JSON_TYPE: Record<FlagKind, string> = {
  switch: "boolean",
  text: "string",
  list: "array",
  optionalList: "array",
  repeated: "array",
  choice: "string",
  count: "integer",
  whole: "integer",
  duration: "string",
  optionalDuration: "string",
  rate: "string",
  url: "string",
  amount: "string",
  share: "number",
  size: "string",
  ttl: "string",
};

function optionOf(flag: Flag): Record<string, unknown> {
  const [, short, long, value] = /^(?:(-\w), )?(--[\w-]+)(?: ([<[].*[>\]]))?$/.exec(flag.flags) ?? [];
  return {
    name: long ?? flag.flags,
    ...(short ? { short } : {}),
    ...(value ? { value, value_required: value.startsWith("<") } : {}),
    type: flag.kind,
    json_type: JSON_TYPE[flag.kind],
    description: flag.description,
    repeatable: flag.kind === "list" || flag.kind === "optionalList" || flag.kind === "repeated",
    ...(flag.choices ? { choices: flag.choices } : {}),
    ...(flag.suggest ? { suggested: flag.suggest } : {}),
    ...(flag.default !== undefined ? { default: flag.default } : {}),
    ...(flag.max !== undefined ? { max: flag.max } : {}),
    ...(flag.negation ? { negation: /--[\w-]+/.exec(flag.negation.flags)?.[0] } : {}),
  };
}

const optionsOf = (table: FlagTable) => Object.values(table).map(optionOf);

/** Every leaf field of a record table: its dot path and kind, and whether it may be null or absent. */
function fieldsOf(shape: Shape, prefix = ""): Array<Record<string, unknown>> {
  return Object.entries(shape).flatMap(([key, spec]) => {
    if (typeof spec === "object") return fieldsOf(spec, `${prefix}${key}.`);
    const leaf = spec as FieldSpec;
    return [
      {
        path: `${prefix}${key}`,
        kind: leaf.replace(/[?~]$/, ""),
        ...(leaf.endsWith("?") ? { nullable: true } : {}),
        ...(isAbsentOk(leaf) ? { optional: true } : {}),
      },
    ];
  });
}

async function returnsOf(module: CommandModule): Promise<Record<string, unknown> | undefined> {
  const tool = toolSpecOf(module);
  if (!tool) return undefined;
  const definition = await module.definition?.();
  const returns = definition
    ? { kind: "records", fields: fieldsOf(definition.shape) }
    : { kind: "answer", schema: outputSchemaOf(tool, undefined) };
  return { returns, mcp_tool: tool.name };
}

async function describe(module: CommandModule, path: string[]): Promise<Record<string, unknown>> {
  const subcommands = await Promise.all(
    (module.subcommands ?? []).map((subcommand) => describe(subcommand, [...path, subcommand.name])),
  );
  return {
    name: path.join(" "),
    description: module.description,
    ...(module.args?.length
      ? {
          arguments: module.args.map((argument) => ({
            name: argument.name.replace(/[<>[\]]|\.\.\./g, ""),
            required: argument.name.startsWith("<"),
            variadic: argument.name.includes("..."),
            description: argument.description,
            ...(argument.values ? { values: argument.values } : {}),
          })),
        }
      : {}),
    options: optionsOf(module.flags),
    ...(module.examples?.length ? { examples: module.examples } : {}),
    ...(path.length === 1 ? await returnsOf(module) : {}),
    ...(subcommands.length ? { subcommands } : {}),
  };
}

export async function runSchema(ctx: RunContext, path: string[]): Promise<void> {
  // The program as help lists it (hidden commands left out), each command's module as defined.
  const program = await ctx.program();
  const modules = program
    .createHelp()
    .visibleCommands(program)
    .flatMap((command) => moduleOf(command) ?? []);
  const commands = await Promise.all(modules.map((module) => describe(module, [module.name])));
  let shown: unknown = {
    name: "tokenintel",
    version: VERSION,
    global_options: optionsOf(GLOBAL_FLAGS),
    commands,
  };
  if (path.length) {
    const wanted = path.join(" ");
    const all = commands.flatMap((command) => [
      command,
      ...((command.subcommands as typeof commands | undefined) ?? []),
    ]);
    shown = all.find((command) => command.name === wanted);
    if (!shown) {
      const near = closest(
        wanted,
        all.map((command) => command.name as string),
      );
      throw new UsageError(
        `schema: unknown command "${wanted}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
      );
    }
  }
  await ctx.io.outJson(`${stringifyJson(shown, 2)}\n`);
}
