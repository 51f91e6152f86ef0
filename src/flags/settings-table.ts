import { CHAINS, DEFAULT_BASE_URL, PATH_GENERATIONS } from "../contract/api.js";
import { USDC_NETWORK_NAMES } from "../contract/assets.js";
import type { Flag, FlagValue } from "../flags/table.js";
import { OUTPUT_FORMATS } from "./formats.js";

// Every setting, declared once (as npm-check-updates declares its options). From this table come
// `config set`'s keys and checks, `config list`'s rows and defaults, the environment variable each
// run reads, the flag (its spelling, help and kind of value), completion of keys and flags, the
// man page's ENVIRONMENT section and `config --help`. A run takes a setting from its flag, then its
// environment variable, then the config store, then its default; a value from the environment or
// the store is checked by the flag's own schema (flags/parse.ts: one schema per kind of value),
// under its own name (TOKENINTEL_CHAIN, config chain).
//
// To add a setting, add an entry: nothing else. Its flag joins the group named by `flag.group`
// (global: every command; payment: the commands that take --pay; output: the commands that print
// records; data: a command picks it by name, as `--chain`).

/** Where a setting's flag is offered. */
export type FlagGroup = "global" | "payment" | "output" | "data";

export interface Setting {
  /** One line: `config --help`, the man page's ENVIRONMENT, `config list`'s reader. */
  description: string;
  /** The environment variable that stands for it. */
  env: `TOKENINTEL_${string}`;
  /**
   * Its flag: spelling (whose long name is the setting's name), help, and kind of value. The kind
   * (with `choices`, `what`, `max`) is also the zod check of a value from the environment or store.
   */
  flag: Flag & { group: FlagGroup };
  /** The value when nothing sets it (of the flag's type); none: the command decides (`unset`). */
  default?: unknown;
  /** What `config list` shows when nothing sets it and there is no `default`. */
  unset?: string;
  /** Never printed (config list and config get hide it); registered as a secret when read. */
  secret?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;

/** Keeps each entry's literal flag kind and choices, so that a setting's value is typed. */
function settingTable<const T extends Record<string, Setting>>(table: T): T {
  return table;
}

export const SETTINGS = settingTable({
  "base-url": {
    description: `API base URL (default ${DEFAULT_BASE_URL})`,
    env: "TOKENINTEL_BASE_URL",
    flag: {
      group: "global",
      flags: "--base-url <url>",
      description: `API base URL (default ${DEFAULT_BASE_URL}, or TOKENINTEL_BASE_URL)`,
      kind: "url",
    },
    default: DEFAULT_BASE_URL,
  },
  "api-paths": {
    description:
      "which generation of the provider's paths the data commands call: older (its agent files') or newer (its newer docs')",
    env: "TOKENINTEL_API_PATHS",
    flag: {
      group: "global",
      flags: "--api-paths <generation>",
      description:
        "call the older paths (the provider's agent files'; the default) or the newer ones its newer docs give, where they renamed an endpoint ('tokenintel api --list' names both)",
      kind: "choice",
      choices: PATH_GENERATIONS,
      what: "path generation",
    },
    default: "older",
  },
  chain: {
    description: "default chain: base or solana",
    env: "TOKENINTEL_CHAIN",
    flag: {
      group: "data",
      flags: "-c, --chain <chain>",
      description: "base or solana (required unless set with 'config set chain')",
      kind: "choice",
      choices: CHAINS,
      what: "chain",
    },
    unset: "(none)",
  },
  output: {
    description: "default output format: table, json, ndjson or csv",
    env: "TOKENINTEL_OUTPUT",
    flag: {
      group: "output",
      flags: "-o, --output <format>",
      description: "output format: table, json, ndjson or csv",
      kind: "choice",
      choices: OUTPUT_FORMATS,
      what: "output format",
    },
    unset: "(table on a terminal, else json)",
  },
  timeout: {
    description: "per-request timeout, e.g. 30s or 5 (seconds)",
    env: "TOKENINTEL_TIMEOUT",
    flag: {
      group: "global",
      flags: "--timeout <duration>",
      description:
        "per-request timeout: 30s, 500ms, 2m, 1h, or a plain number of seconds; at most 24h (default 30s)",
      kind: "duration",
    },
    default: DEFAULT_TIMEOUT_MS,
  },
  retries: {
    description: `retries for failed requests (default ${DEFAULT_RETRIES})`,
    env: "TOKENINTEL_RETRIES",
    flag: {
      group: "global",
      flags: "--retries <n>",
      description: `retries for failed idempotent requests (default ${DEFAULT_RETRIES})`,
      kind: "whole",
    },
    default: DEFAULT_RETRIES,
  },
  "pay-network": {
    description: "the network --pay pays on when offered several: base, polygon or base-sepolia",
    env: "TOKENINTEL_PAY_NETWORK",
    flag: {
      group: "payment",
      flags: "--pay-network <network>",
      description:
        "pay only on this network: base, polygon or base-sepolia (default: config pay-network, else the first offer tokenintel accepts: Polygon's, then the others in the server's order)",
      kind: "choice",
      choices: USDC_NETWORK_NAMES,
      what: "network",
    },
    unset: "(the offer's first)",
  },
  "pay-to": {
    description:
      "the only payees --pay may pay: one or more addresses, comma-separated (unset: the payee of any offer tokenintel accepts)",
    env: "TOKENINTEL_PAY_TO",
    flag: {
      group: "payment",
      flags: "--pay-to <addresses>",
      description:
        "pay only these addresses (comma-separated); an offer to any other is refused before anything is signed, exit 5 (default: TOKENINTEL_PAY_TO, config pay-to, else any payee)",
      kind: "list",
    },
    unset: "(any payee)",
  },
  "daily-cap": {
    description: "the most --pay signs in any 24 hours, by every run, e.g. 1.00 (unset: no cap)",
    env: "TOKENINTEL_DAILY_CAP",
    flag: {
      group: "payment",
      flags: "--daily-cap <amount>",
      description:
        "refuse to sign a payment that would take the total signed in the last 24 hours, by every run (counted from the payment ledger), over this (default: TOKENINTEL_DAILY_CAP, config daily-cap, else none)",
      kind: "amount",
    },
    unset: "(no cap)",
  },
  cache: {
    description: "answer repeated GETs from disk for this long, e.g. 10m (0 or unset: off)",
    env: "TOKENINTEL_CACHE",
    flag: {
      group: "global",
      flags: "--cache <ttl>",
      description:
        "answer a GET repeated within ttl from disk, without a request (e.g. 60s, 10m, 1h, 1w; at most 7d; 0 = off; or TOKENINTEL_CACHE, 'config set cache')",
      kind: "ttl",
      negation: { flags: "--no-cache", description: "neither read nor write the response cache in this run" },
    },
    default: 0,
  },
});

type Table = typeof SETTINGS;
export type SettingName = keyof Table;

/** "pay-network" → "payNetwork": commander's attribute name for the setting's flag. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** The flags of one group, keyed by commander's attribute name, with their literal types. */
export type SettingFlags<G extends FlagGroup> = {
  [K in SettingName as Table[K]["flag"]["group"] extends G ? Camel<K> : never]: Table[K]["flag"];
};

/** A setting's value as a run uses it (its flag's type), and undefined when it has no default. */
export type SettingValue<K extends SettingName> =
  | Exclude<FlagValue<Table[K]["flag"]>, false>
  | (Table[K] extends { default: unknown } ? never : undefined);

/** The settings' names, in the table's order (read when asked, never cached). */
export function settingNames(): SettingName[] {
  return Object.keys(SETTINGS) as SettingName[];
}

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

/** commander's attribute name for a setting's flag: "base-url" → "baseUrl". */
export function flagAttribute(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The flags of the settings in one group, in the table's order, for a flag table to take in. */
export function settingFlags<G extends FlagGroup>(group: G): SettingFlags<G> {
  const flags: Record<string, Flag> = {};
  // The output format and the payment settings are the command line's: a tool answers structured
  // content, and pays as the server was started.
  const cliOnly = group === "output" || group === "payment";
  for (const [name, setting] of Object.entries(SETTINGS as Record<string, Setting>)) {
    if (setting.flag.group === group)
      flags[flagAttribute(name)] = cliOnly ? { ...setting.flag, cliOnly: true } : setting.flag;
  }
  return flags as SettingFlags<G>;
}

/** The environment variables that stand for settings, with what each means (the man page). */
export function settingEnvironment(): Array<[string, string]> {
  return Object.values(SETTINGS as Record<string, Setting>).map((s) => [s.env, s.description]);
}

/** `config --help`'s list: each setting, what it is, then its flag and environment variable, aligned. */
export function settingsHelp(): string {
  const width = Math.max(...settingNames().map((name) => name.length));
  const indent = " ".repeat(width + 4);
  return Object.entries(SETTINGS as Record<string, Setting>)
    .map(([name, setting]) => {
      const flag = /--[a-z0-9-]+/.exec(setting.flag.flags)?.[0] ?? setting.flag.flags;
      return `  ${name.padEnd(width)}  ${setting.description}\n${indent}${flag}, ${setting.env}`;
    })
    .join("\n");
}
