import type { Command } from "commander";
import { type CommandModule, moduleOf } from "../../src/commands/command.js";
import type { DataCommandDefinition } from "../../src/commands/data/definition.js";
import { type LoadedTool, loadTools } from "../../src/commands/mcp/catalog.js";
import { type EndpointSpec, endpointOfCommand } from "../../src/contract/endpoints.js";
import { fullProgram } from "../../src/program.js";

// What the docs are generated from, read from the program itself: every command help lists, with
// its module (flags, help, examples, notes), its data definition (record shape, table views), its
// registry entry (endpoint, price) and its MCP tool. A command added to the program is here.

export interface CommandDoc {
  /** ["auth", "login"] */
  path: string[];
  cmd: Command;
  module: CommandModule;
  definition: DataCommandDefinition | undefined;
  endpoint: EndpointSpec | undefined;
  tool: LoadedTool | undefined;
  subcommands: CommandDoc[];
}

export interface DocsModel {
  program: Command;
  /** The commands help lists, in its order (hidden ones left out). */
  commands: CommandDoc[];
  /** The MCP server's tools, as tools/list lists them (a server started without --pay). */
  tools: LoadedTool[];
}

/** The commands under `cmd` that help lists, without commander's own `help`. */
export function visibleCommands(cmd: Command): Command[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => c.name() !== "help");
}

async function commandDoc(cmd: Command, path: string[], tools: LoadedTool[]): Promise<CommandDoc> {
  const module = moduleOf(cmd);
  if (!module) throw new Error(`tokenintel ${path.join(" ")}: no command module`);
  const top = path.length === 1;
  return {
    path,
    cmd,
    module,
    definition: top ? await module.definition?.() : undefined,
    endpoint: top ? endpointOfCommand(module.name) : undefined,
    tool: top ? tools.find((t) => t.module === module) : undefined,
    subcommands: await Promise.all(
      visibleCommands(cmd).map((c) => commandDoc(c, [...path, c.name()], tools)),
    ),
  };
}

export async function loadModel(): Promise<DocsModel> {
  const program = await fullProgram();
  const tools = await loadTools(program, false);
  const commands = await Promise.all(visibleCommands(program).map((c) => commandDoc(c, [c.name()], tools)));
  return { program, commands, tools };
}

/** Every command and subcommand, depth first. */
export function allCommands(model: DocsModel): CommandDoc[] {
  const walk = (doc: CommandDoc): CommandDoc[] => [doc, ...doc.subcommands.flatMap(walk)];
  return model.commands.flatMap(walk);
}

/** Every example of the program's commands, in order. */
export function allExamples(model: DocsModel): string[] {
  return allCommands(model).flatMap((d) => d.module.examples ?? []);
}
