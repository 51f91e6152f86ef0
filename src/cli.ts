import { Command, CommanderError, Option } from "commander";
import { DEFAULT_MAX_BODY_BYTES, formatBytes, MAX_BODY_CAP_BYTES, MAX_JSON_DEPTH } from "./api/limits.js";
import { COMMANDS } from "./commands/definitions.js";
import type { Context, GlobalOptions } from "./context.js";
import { CliError, ExitCode } from "./errors.js";
import { type ColorMode, IO } from "./io.js";

declare const __TOKENINTEL_VERSION__: string;
const VERSION = typeof __TOKENINTEL_VERSION__ === "string" ? __TOKENINTEL_VERSION__ : "0.0.0-dev";

// The program: global flags, the commands and their flags (declarative and cheap), and actions
// that import their command's code only when it runs. This file holds the only process.exit.

const abort = new AbortController();
const io = new IO();
let context: Context | undefined;

async function contextFor(cmd: Command): Promise<Context> {
  const globals = cmd.optsWithGlobals() as GlobalOptions;
  const { Context } = await import("./context.js");
  if (globals.color === false) io.setColorMode("never");
  else if (typeof globals.color === "string") io.setColorMode(globals.color as ColorMode);
  context = new Context(io, globals, abort.signal);
  return context;
}

/**
 * The program. Commands other than the one being run are only a name and a line of help (enough
 * for the command list and for suggestions); `all` defines every command in full.
 */
export function buildProgram(argv: readonly string[], all = false): Command {
  const program = new Command("tokenintel")
    .description(
      "Token intelligence in your terminal: market data, holders, smart money, dev wallets, social mindshare, agents and TA for tokens on Base and Solana.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .option(
      "--api-key <key>",
      "API key for this run (prefer 'auth login' or TOKENINTEL_API_KEY: flags show up in shell history)",
    )
    .option("--base-url <url>", "API base URL (default https://api.dapplooker.com, or TOKENINTEL_BASE_URL)")
    .option("--sandbox", "run against a local sandbox API started for this command (no account, no network)")
    .option("--timeout <duration>", "per-request timeout, e.g. 30s or 500ms (default 30s)")
    .option("--retries <n>", "retries for failed idempotent requests (default 3)")
    .option("--rate <n/min>", "at most this many requests a minute, e.g. 90/min")
    .option("--concurrency <n>", "requests in flight at once (default 4)")
    .option(
      "--max-body <size>",
      `refuse a response larger than this, e.g. 64MB or 512KiB (default ${formatBytes(DEFAULT_MAX_BODY_BYTES, true)}, at most ${formatBytes(MAX_BODY_CAP_BYTES, true)}); JSON nested deeper than ${MAX_JSON_DEPTH} levels is always refused`,
    )
    .option("-v, --verbose", "log each request (key redacted) and full errors to stderr")
    .option("-q, --quiet", "say nothing on stderr but errors and warnings")
    .addOption(
      new Option("--color <when>", "colour: auto (a terminal, unless NO_COLOR), always or never").choices([
        "auto",
        "always",
        "never",
      ]),
    )
    .option("--no-color", "never colour the output (same as --color never)")
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
      outputError: (s, write) => write(`tokenintel: ${s.replace(/^error: /, "")}`),
    });

  const target = all ? undefined : invokedCommand(program, argv);
  for (const def of COMMANDS) {
    const cmd = program.command(def.name).description(def.description);
    if (all || def.name === target) def.define(cmd, contextFor, () => buildProgram(argv, true));
  }
  return program;
}

/** The command named on the line: the first word that is not a global option or its value. */
function invokedCommand(program: Command, argv: readonly string[]): string | undefined {
  const takesValue = new Set<string>();
  for (const o of program.options) {
    if (o.required || o.optional) for (const f of [o.long, o.short]) if (f) takesValue.add(f);
  }
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return argv[i + 1];
    if (arg.startsWith("-")) {
      if (!arg.includes("=") && takesValue.has(arg)) i++;
      continue;
    }
    return arg === "help" ? argv[i + 1] : arg;
  }
  return undefined;
}

/** Maps any failure to one line on stderr and an exit code. */
function report(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    )
      return ExitCode.ok;
    return ExitCode.usage; // commander already printed the message
  }
  if (error instanceof CliError) {
    if (error.exitCode !== ExitCode.interrupted) io.err(`tokenintel: ${error.message}`);
    if (verbose && error.stack) io.stderr.write(`${io.redact(error.stack)}\n`);
    return error.exitCode;
  }
  const err = error as Error;
  io.err(
    `tokenintel: unexpected error: ${err?.message ?? String(error)}${verbose ? "" : " (run with --verbose for details)"}`,
  );
  if (verbose && err?.stack) io.stderr.write(`${io.redact(err.stack)}\n`);
  return ExitCode.error;
}

async function main(argv: string[]): Promise<void> {
  // `on`, not `once`: a dependency's signal-exit hook re-raises the signal when it finds itself the
  // only listener, which would kill the process before it can exit with its own code.
  let interrupted = false;
  const onSignal = (code: number) => () => {
    if (interrupted) process.exit(code);
    interrupted = true;
    abort.abort(new Error("interrupted"));
    // Give aborted requests a moment to unwind, then leave with the conventional code.
    setTimeout(() => process.exit(code), 50);
  };
  process.on("SIGINT", onSignal(ExitCode.interrupted));
  process.on("SIGTERM", onSignal(143));
  io.onStdoutClosed = () => process.exit(ExitCode.ok);

  const program = buildProgram(argv);
  if (argv.length <= 2) {
    program.outputHelp();
    process.exitCode = ExitCode.ok;
    return;
  }
  let code: number = ExitCode.ok;
  try {
    await program.parseAsync(argv);
  } catch (error) {
    code = report(error, argv.includes("--verbose") || argv.includes("-v"));
  } finally {
    await context?.close().catch(() => {});
  }
  if (abort.signal.aborted) code = ExitCode.interrupted;
  process.exitCode = code;
}

await main(process.argv);
