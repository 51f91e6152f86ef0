import type { Command } from "commander";
import type { RunContext } from "../context.js";
import type { FlagTable, FlagValues } from "../flags/table.js";
import type { DataCommandDefinition } from "./data/definition.js";

/** A positional argument: "<question>", "[key]". */
export interface Argument {
  name: string;
  description: string;
  /** The values shell completion offers for it (config keys, shells). */
  values?: readonly string[];
}

/**
 * One command: its flags as a table, its help, and run(), which gets the parsed options (typed from
 * the table) and the positional arguments. A command with subcommands has no run of its own.
 */
export interface CommandModule<T extends FlagTable = FlagTable> {
  name: string;
  description: string;
  flags: T;
  args?: Argument[];
  /** Command lines shown under "Examples:", each runnable as written. */
  examples?: string[];
  /** More help after the examples. */
  notes?: string;
  subcommands?: CommandModule[];
  run?: (ctx: RunContext, opts: FlagValues<T>, args: string[]) => Promise<void>;
  /** A data command: the definition its run reads, which its MCP tool walks with too. */
  definition?: () => Promise<DataCommandDefinition>;
  /** A tool of the MCP server that no endpoint of the registry stands for (check's verdict). */
  tool?: OwnTool;
}

/** What a command that is no endpoint of its own tells the MCP server of its tool. */
export interface OwnTool {
  name: string;
  title: string;
  description: string;
  /** Arguments an agent must give. */
  required?: readonly string[];
  /** One of tickers, addresses or ids is required. */
  needsTokens?: boolean;
}

/** Declares a command, keeping its flag table's literal types for run()'s options. */
export function defineCommand<const T extends FlagTable>(command: CommandModule<T>): CommandModule<T> {
  return command;
}

const modules = new WeakMap<Command, CommandModule>();

/** Records the module a commander command was defined from (the program does, for each command). */
export function recordModule(cmd: Command, module: CommandModule): void {
  modules.set(cmd, module);
}

/** The module a commander command was defined from: its flag table, examples, subcommands. */
export function moduleOf(cmd: Command): CommandModule | undefined {
  return modules.get(cmd);
}
