// The command line, read once before anything else loads, by every entry the same way: the shim
// takes from it what to start (the version, a help page, completion or the program), the help
// pages which page is asked for, and the program which command to load. Nothing here knows the
// commands or the flag tables: the program hands in the global options that take a value.

/** A word of the line that is neither an option nor an option's value, and its index in args. */
export interface Word {
  word: string;
  at: number;
}

export interface CommandLine {
  /**
   * `--version` (or -V) alone: "plain", which the shim answers; with --verbose (-v) beside it, in
   * either order and nothing else: "verbose", the long form of `version --verbose`.
   */
  version: "plain" | "verbose" | undefined;
  /**
   * The help page asked for, when the line asks for nothing else: its command path ("" for the
   * program, "config set") from `--help` or -h after the path, `help` before one command's name,
   * or no arguments at all. Undefined for anything the program must read itself (options, `help`
   * with more than one word).
   */
  helpPath: string | undefined;
  /** `tokenintel __complete ...`: shell completion asks for values. */
  complete: boolean;
  /** The line asks for NDJSON: --ndjson, -o ndjson, --output ndjson or --output=ndjson. */
  ndjson: boolean;
  /**
   * The words after the global options and their values (the command path and its arguments),
   * from the first word on; after `--`, the next argument alone.
   */
  words: Word[];
}

const VERSION = ["--version", "-V"];
const VERBOSE = ["--verbose", "-v"];
const HELP = ["--help", "-h"];
const NONE: ReadonlySet<string> = new Set();

/** Reads `args` (argv without node and the script); `takesValue`: the global options that take a value. */
export function readCommandLine(args: readonly string[], takesValue = NONE): CommandLine {
  return {
    version: versionAsked(args),
    helpPath: helpPath(args),
    complete: args[0] === "__complete",
    ndjson: args.some(
      (word, index) =>
        word === "--ndjson" ||
        word === "--output=ndjson" ||
        ((word === "-o" || word === "--output") && args[index + 1] === "ndjson"),
    ),
    words: commandWords(args, takesValue),
  };
}

function versionAsked(args: readonly string[]): CommandLine["version"] {
  if (args.length === 1 && VERSION.includes(args[0]!)) return "plain";
  const only = args.every((a) => VERSION.includes(a) || VERBOSE.includes(a));
  const both = args.some((a) => VERSION.includes(a)) && args.some((a) => VERBOSE.includes(a));
  return only && both ? "verbose" : undefined;
}

function helpPath(args: readonly string[]): string | undefined {
  let path: readonly string[];
  if (args.length === 0) path = [];
  else if (args[0] === "help" && args.length <= 2) path = args.slice(1);
  else if (HELP.includes(args.at(-1)!)) path = args.slice(0, -1);
  else return undefined;
  return path.some((word) => word.startsWith("-")) ? undefined : path.join(" ");
}

function commandWords(args: readonly string[], takesValue: ReadonlySet<string>): Word[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return i + 1 < args.length ? [{ word: args[i + 1]!, at: i + 1 }] : [];
    if (arg.startsWith("-")) {
      if (!arg.includes("=") && takesValue.has(arg)) i++;
      continue;
    }
    const words: Word[] = [];
    for (let j = i; j < args.length; j++)
      if (!args[j]!.startsWith("-")) words.push({ word: args[j]!, at: j });
    return words;
  }
  return [];
}
