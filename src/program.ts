import { Command, Help } from "commander";
import { type CommandModule, recordModule } from "./commands/command.js";
import type { RunContext } from "./context.js";
import { GLOBAL_FLAGS } from "./flags/global.js";
import { addArgument, addFlags, type FlagTable } from "./flags/table.js";

import { reflow, wrapNotes } from "./help/notes.js";
import { formatItem, wrap } from "./help/render.js";
import { VERSION } from "./version.js";

// The commander program, built from the command modules. Only the command being run is loaded and
// defined in full; the others are names (enough to dispatch and to suggest), until help lists them.

type Loader = () => Promise<{ default: CommandModule }>;

/** Every command, loaded on demand. The order is the order help lists them in. */
export const COMMANDS: Record<string, Loader> = {
  market: () => import("./commands/market/index.js"),
  directory: () => import("./commands/directory/index.js"),
  agents: () => import("./commands/agents/index.js"),
  ta: () => import("./commands/ta/index.js"),
  trending: () => import("./commands/trending/index.js"),
  "smart-money": () => import("./commands/smart-money/index.js"),
  staking: () => import("./commands/staking/index.js"),
  history: () => import("./commands/history/index.js"),
  perp: () => import("./commands/perp/index.js"),
  check: () => import("./commands/check/index.js"),
  ask: () => import("./commands/ask/index.js"),
  api: () => import("./commands/api/index.js"),
  auth: () => import("./commands/auth/index.js"),
  config: () => import("./commands/config/index.js"),
  cache: () => import("./commands/cache/index.js"),
  payments: () => import("./commands/payments/index.js"),
  sandbox: () => import("./commands/sandbox/index.js"),
  mcp: () => import("./commands/mcp/index.js"),
  schema: () => import("./commands/schema/index.js"),
  skill: () => import("./commands/skill/index.js"),
  completion: () => import("./commands/completion/index.js"),
  version: () => import("./commands/version/index.js"),
  __complete: () => import("./commands/complete/index.js"),
};

/** Commands left out of help and of the completion scripts (the scripts call them). */
export const HIDDEN_COMMANDS: ReadonlySet<string> = new Set(["__complete"]);

/** How an action gets its run's context: made from the parsed global flags, once. */
export type ContextFor = (cmd: Command) => Promise<RunContext>;

export interface ProgramOptions {
  /** The command to define in full; undefined: every command (help, completion). */
  only?: string;
  contextFor: ContextFor;
  /** Where help and commander's own errors go (the run's IO). */
  write: { out: (s: string) => void; err: (s: string) => void };
  /** Takes commander's error messages instead of writing them (the CLI adds hints, in one line). */
  onError?: (message: string) => void;
}

export async function buildProgram(options: ProgramOptions): Promise<Command> {
  const { write } = options;
  const program = new Command("tokenintel")
    .description(
      "Token intelligence in your terminal: market data, holders, smart money, dev wallets, social mindshare, agents and TA for tokens on Base and Solana.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .showSuggestionAfterError(true)
    .configureHelp({
      sortSubcommands: false,
      // The layout of the pre-rendered pages (help/render.ts), at any width.
      formatItem: (term, termWidth, description, helper) =>
        formatItem(term, termWidth, description, helper.helpWidth ?? 80),
      boxWrap: (text, width) => wrap(text, width),
    })
    .exitOverride()
    .configureOutput({
      writeOut: write.out,
      writeErr: write.err,
      outputError: (message, writeError) =>
        options.onError
          ? options.onError(message)
          : writeError(`tokenintel: ${message.replace(/^error: /, "")}`),
    });
  addFlags(program, GLOBAL_FLAGS);
  const names = Object.keys(COMMANDS);
  const full = options.only === undefined ? names : names.filter((n) => n === options.only);
  const modules = new Map(
    await Promise.all(full.map(async (name) => [name, (await COMMANDS[name]!()).default] as const)),
  );
  for (const name of names) {
    const module = modules.get(name);
    const cmd = program.command(name, { hidden: HIDDEN_COMMANDS.has(name) });
    if (module) defineCommand(cmd, module, options.contextFor);
  }
  return program;
}

/**
 * A command's page names the global options after its own options and subcommands, in one
 * paragraph, as gh names inherited flags; `tokenintel --help` describes them.
 */
function globalsBriefly(cmd: Command, helper: Help): string {
  const names: string[] = [];
  for (let parent = cmd.parent; parent; parent = parent.parent)
    for (const o of parent.options) if (!o.hidden && o.long) names.push(o.long);
  const line = `Global options (described in 'tokenintel --help'): ${names.join(", ")}`;
  return `\n${helper.boxWrap(line, helper.helpWidth ?? 80)}\n`;
}

/** Every command defined in full, runnable by none: for completion scripts and the man page. */
export function fullProgram(): Promise<Command> {
  const nowhere = () => {};
  return buildProgram({
    contextFor: () => Promise.reject(new Error("fullProgram() describes commands; it runs none")),
    write: { out: nowhere, err: nowhere },
  });
}

function defineCommand(cmd: Command, module: CommandModule, contextFor: ContextFor): void {
  recordModule(cmd, module);
  cmd.description(module.description);
  addFlags(cmd, module.flags);
  for (const arg of module.args ?? []) addArgument(cmd, arg);
  // After the options: the examples as written (each runs as typed), then the notes, wrapped at the
  // help's width like every other paragraph (scripts/help-pages.ts records them as such).
  const examples = module.examples?.length
    ? `\nExamples:\n${module.examples.map((line) => `  $ ${line}`).join("\n")}\n`
    : "";
  cmd.configureHelp({
    ...cmd.configureHelp(),
    formatHelp: (command: Command, helper: Help) => {
      // Read when help is shown: a command's notes may be made from tables (check's rules).
      const notes = module.notes ? reflow(module.notes) : undefined;
      return `${Help.prototype.formatHelp.call(helper, command, helper)}${globalsBriefly(command, helper)}${examples}${
        notes ? `\n${wrapNotes(notes, (line) => helper.boxWrap(line, helper.helpWidth ?? 80))}\n` : ""
      }`;
    },
  });
  for (const sub of module.subcommands ?? []) defineCommand(cmd.command(sub.name), sub, contextFor);
  const run = module.run;
  if (!run) {
    // A bare group (`tokenintel config`) shows its help like a bare `tokenintel`: on stdout, exit 0.
    if (module.subcommands?.length) {
      cmd.allowExcessArguments(true).action(async (...params: unknown[]) => {
        const [word] = (params[params.length - 1] as Command).args;
        if (word !== undefined) {
          const { UsageError } = await import("./errors.js");
          const names = cmd.commands.map((c) => c.name()).join(", ");
          throw new UsageError(`unknown command '${cmd.name()} ${word}' (${cmd.name()} commands: ${names})`);
        }
        cmd.outputHelp();
      });
    }
    return;
  }
  cmd.action(async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    // A variadic last argument (`[command...]`) takes every word left.
    const variadic = module.args?.at(-1)?.name.includes("...");
    const args = variadic ? command.args : command.args.slice(0, module.args?.length ?? 0);
    const ctx = await contextFor(command);
    const { parseFlags } = await import("./flags/parse.js");
    const opts = parseFlags(module.flags, { ...sharedWithParents(command, module.flags), ...command.opts() });
    await run(ctx, opts, args);
  });
}

/**
 * The flags a subcommand shares with a command above it (`mcp tokens add --daily-cap`, `mcp
 * --daily-cap`): commander reads a parent's options first, so such a flag lands with the parent;
 * it is the subcommand's. The program's own (global) flags are not taken.
 */
function sharedWithParents(command: Command, table: FlagTable): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  for (let parent = command.parent; parent?.parent; parent = parent.parent)
    for (const key of Object.keys(table))
      if (shared[key] === undefined && parent.getOptionValue(key) !== undefined)
        shared[key] = parent.getOptionValue(key);
  return shared;
}
