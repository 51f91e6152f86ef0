import { Argument, type Command, Option } from "commander";

// Flags as data. A table names each flag's spelling, help and kind of value; from it come the
// commander options (here), the options' TypeScript type (FlagValues), a zod object that checks
// them (parse.ts, loaded only when a command runs) and the values shell completion offers. The
// table's key is commander's attribute name for the flag, checked when the options are made, so a
// renamed flag cannot silently read `undefined`.

export type FlagKind =
  /** on or off */
  | "switch"
  /** a string as given */
  | "text"
  /** comma-separated items, repeatable (`\,` for a comma inside an item) */
  | "list"
  /** a list that may be left out to ask what it could hold (`--fields` alone lists the paths) */
  | "optionalList"
  /** a string, repeatable: each one kept whole */
  | "repeated"
  /** one of `choices` */
  | "choice"
  /** a whole number of 1 or more */
  | "count"
  /** a whole number of 0 or more */
  | "whole"
  /** 30s, 500ms, 2m, 1h, or seconds (flags/durations.ts): milliseconds */
  | "duration"
  /** a switch that may carry a duration (`--watch`, `--watch 30s`) */
  | "optionalDuration"
  /** 100/min: requests a minute */
  | "rate"
  /** an http(s) URL without credentials */
  | "url"
  /** an amount of a 6-decimal asset, kept as typed ("0.01") */
  | "amount"
  /** a rate from 0 to 1 */
  | "share"
  /** a size in bytes: 64MB, 64MiB, 512KiB */
  | "size"
  /** a cache's time to live (90s, 10m, 1h, 1d, 1w; 0 = off): milliseconds */
  | "ttl";

export interface Flag<K extends FlagKind = FlagKind, C extends readonly string[] = readonly string[]> {
  /** commander's spelling: "-c, --chain <chain>", "--pay", "-w, --watch [interval]" */
  flags: string;
  description: string;
  kind: K;
  /** The values of a "choice" (case-insensitive), also offered by completion. */
  choices?: C;
  /** Values completion offers for a free-form flag. */
  suggest?: readonly string[];
  /** What the value means in messages when it is wrong, e.g. "of 1 or more", "chain". */
  what?: string;
  /** For a choice, the message says "expected <this>, got ..." instead of "unknown <what> ...". */
  expected?: string;
  /** The largest value a number flag takes; for text, the most characters. */
  max?: number;
  /** The default commander fills in (shown in help). */
  default?: string;
  /** A second spelling that turns the flag off, e.g. "--no-color" beside "--color <when>". */
  negation?: { flags: string; description: string };
  /**
   * A flag of the command line alone (a terminal's layout, an output format, watching, paging,
   * paying, the local index): no MCP tool takes it, since the server's own arguments (limit,
   * cursor, fields) or its start's flags stand for it.
   */
  cliOnly?: true;
}

export type FlagTable = Record<string, Flag>;

interface KindValue {
  switch: boolean;
  text: string;
  list: string[];
  optionalList: string[] | true;
  repeated: string[];
  choice: string;
  count: number;
  whole: number;
  duration: number;
  optionalDuration: number | true;
  rate: number;
  url: string;
  amount: string;
  share: number;
  size: number;
  ttl: number;
}

type ValueOf<F extends Flag> =
  | (F extends { kind: "choice"; choices: infer C extends readonly string[] }
      ? C[number]
      : KindValue[F["kind"]])
  | (F extends { negation: object } ? false : never);

/** The value a flag gives once parsed (false for its --no- spelling). */
export type FlagValue<F extends Flag> = ValueOf<F>;

/** The parsed options of a flag table: each flag's value, or undefined when it was not given. */
export type FlagValues<T extends FlagTable> = { [K in keyof T]?: ValueOf<T[K]> };

/** Declares a table while keeping each flag's literal kind and choices for FlagValues. */
export function flagTable<const T extends FlagTable>(table: T): T {
  return table;
}

const collect = (value: string, previous: string[] | undefined) =>
  previous ? [...previous, value] : [value];

const valuesOf = new WeakMap<Option, readonly string[]>();

/** The values completion offers for an option made from a table, if it has a fixed set. */
export function completionValues(option: Option): readonly string[] | undefined {
  return valuesOf.get(option);
}

const argumentValuesOf = new WeakMap<Argument, readonly string[]>();

/** The values completion offers for a command's positional argument, if it has a fixed set. */
export function argumentValues(argument: Argument): readonly string[] | undefined {
  return argumentValuesOf.get(argument);
}

/** Adds a positional argument to a command, with the values completion offers for it. */
export function addArgument(
  cmd: Command,
  arg: { name: string; description: string; values?: readonly string[] },
): void {
  const argument = new Argument(arg.name, arg.description);
  if (arg.values) argumentValuesOf.set(argument, arg.values);
  cmd.addArgument(argument);
}

/** Adds a table's flags to a command. */
export function addFlags(cmd: Command, table: FlagTable): Command {
  for (const [key, flag] of Object.entries(table)) {
    const option = new Option(flag.flags, flag.description);
    if (flag.kind === "list" || flag.kind === "optionalList" || flag.kind === "repeated")
      option.argParser(collect);
    if (flag.default !== undefined) option.default(flag.default);
    if (option.attributeName() !== key) {
      throw new Error(`flag table: ${flag.flags} is read as "${option.attributeName()}", not "${key}"`);
    }
    const values = flag.choices ?? flag.suggest;
    if (values) valuesOf.set(option, values);
    cmd.addOption(option);
    if (flag.negation) cmd.addOption(new Option(flag.negation.flags, flag.negation.description));
  }
  return cmd;
}

/** A flag's long name, for messages: "--chain". */
/** The spellings of the flags in `table` that take a value ("--base-url", "-o"), to walk a command line. */
export function valueFlagNames(table: FlagTable): string[] {
  return Object.values(table)
    .filter((flag) => /[<[]/.test(flag.flags))
    .flatMap((flag) => flag.flags.match(/--?[a-z0-9-]+/g) ?? []);
}

export function longName(flag: Flag): string {
  return /--[a-z0-9-]+/.exec(flag.flags)?.[0] ?? flag.flags;
}
