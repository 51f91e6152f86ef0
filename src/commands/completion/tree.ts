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
  return cmd.options.map((o: Option) => ({
    names: [o.short, o.long].filter((n): n is string => Boolean(n)),
    description: o.description,
    takesValue: o.required,
    optionalValue: o.optional,
    values: completionValues(o),
    dynamic: o.long ? DYNAMIC[o.long] : undefined,
  }));
}

export function nodeOf(cmd: Command): CompletionNode {
  return {
    name: cmd.name(),
    description: cmd.description(),
    flags: flagsOf(cmd),
    args: cmd.registeredArguments.map((a) => ({ name: a.name(), values: argumentValues(a) })),
    // What help lists: hidden commands (__complete) left out, and help's own.
    subcommands: cmd
      .createHelp()
      .visibleCommands(cmd)
      .filter((c) => c.name() !== "help")
      .map(nodeOf),
  };
}

/** A POSIX shell single-quoted word (fish reads it the same way). */
export const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
