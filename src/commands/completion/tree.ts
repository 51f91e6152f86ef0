import type { Command, Option } from "commander";
import { argumentValues, completionValues } from "../../flags/table.js";

// What every shell's script is built from: the program's commands, their flags and arguments, with
// the fixed values the flag tables give and the flags whose values are asked for on Tab.

export interface CompletionFlag {
  names: string[];
  description: string;
  takesValue: boolean;
  /** Takes a value that may be left out (--fields alone lists the paths). */
  optionalValue: boolean;
  values?: readonly string[];
  /** Values found on Tab: tickers from the token index, or the dot paths of the command's records. */
  dynamic?: "tickers" | "paths";
}

export interface CompletionArg {
  name: string;
  values?: readonly string[];
}

export interface CompletionNode {
  name: string;
  description: string;
  flags: CompletionFlag[];
  args: CompletionArg[];
  subcommands: CompletionNode[];
}

/** Flags whose values are found on Tab: tickers from the token index, dot paths from the shape. */
const DYNAMIC: Record<string, CompletionFlag["dynamic"]> = {
  "--tickers": "tickers",
  // Dot paths of the command's records (the spec knows them): --where completes the path part.
  "--sort": "paths",
  "--fields": "paths",
  "--columns": "paths",
  "--where": "paths",
};

function flagsOf(cmd: Command): CompletionFlag[] {
  return cmd.options.map((option: Option) => ({
    names: [option.short, option.long].filter((name): name is string => Boolean(name)),
    description: option.description,
    takesValue: option.required,
    optionalValue: option.optional,
    values: completionValues(option),
    dynamic: option.long ? DYNAMIC[option.long] : undefined,
  }));
}

export function nodeOf(cmd: Command): CompletionNode {
  return {
    name: cmd.name(),
    description: cmd.description(),
    flags: flagsOf(cmd),
    args: cmd.registeredArguments.map((argument) => ({
      name: argument.name(),
      values: argumentValues(argument),
    })),
    // What help lists: hidden commands (__complete) left out, and help's own.
    subcommands: cmd
      .createHelp()
      .visibleCommands(cmd)
      .filter((command) => command.name() !== "help")
      .map(nodeOf),
  };
}

/** A POSIX shell single-quoted word (fish reads it the same way). */
export const q = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
