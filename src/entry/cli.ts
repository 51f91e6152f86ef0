import { CommanderError } from "commander";
import type { Context } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { describeFsError } from "../files/errors.js";
import { GLOBAL_FLAGS } from "../flags/global.js";
import { type Flag, valueFlagNames } from "../flags/table.js";
import { IO } from "../io.js";
import { buildProgram, COMMANDS, fullProgram, HIDDEN_COMMANDS } from "../program.js";
import { sanitizeBlock } from "../terminal/sanitize.js";
import { readCommandLine, type Word } from "./command-line.js";

// The entry point: reads the command line, validates the global flags before any command runs,
// runs the command, and maps whatever happened to one line and an exit code. The only
// process.exit is here.

const abort = new AbortController();
const io = new IO();
let context: Context | undefined;
/** Commander's message for a usage error, printed by report() with its hint. */
let commanderMessage: string | undefined;
let programForHints: import("commander").Command | undefined;
let argsForHints: string[] = [];
let closing: Promise<void> | undefined;

/** Ends the run's context once (connections, sandbox, and the summary of anything paid). */
function closeContext(): Promise<void> {
  closing ??= context?.close().catch(() => {}) ?? Promise.resolve();
  return closing;
}

/** The run's context, made once from the global flags (checked here, before the command runs). */
async function contextFor(argv: readonly string[], cmd: import("commander").Command): Promise<Context> {
  if (context) return context;
  const [{ parseFlags }, { Context }] = await Promise.all([
    import("../flags/parse.js"),
    import("../context.js"),
  ]);
  const globals = parseFlags(GLOBAL_FLAGS, cmd.optsWithGlobals());
  if (globals.color === false) io.setColorMode("never");
  else if (globals.color !== undefined) io.setColorMode(globals.color);
  if (globals.pager === false) io.pagerEnabled = false;
  context = new Context(io, globals, abort.signal, `tokenintel ${argv.slice(2).join(" ")}`, fullProgram);
  return context;
}

/** The global options that take a value (`--timeout 5s`): the command line's reader skips the value. */
const TAKES_VALUE: ReadonlySet<string> = new Set(valueFlagNames(GLOBAL_FLAGS));

/** The words of the line that are not global options or their values, with their places in argv. */
function commandWords(argv: readonly string[]): Word[] {
  return readCommandLine(argv.slice(2), TAKES_VALUE).words.map(({ word, at }) => ({ word, at: at + 2 }));
}

/**
 * `help config set` is `config set --help` (commander's help command takes one word); `help nope`
 * is a usage error before anything is loaded. Returns the line to run and the command path asked.
 */
function helpRequest(argv: string[]): { argv: string[]; path: string[] } | undefined {
  const words = commandWords(argv);
  if (words[0]?.word !== "help" || words.length < 2 || words[1]!.word === "help") return undefined;
  const path = words.slice(1).map((w) => w.word);
  if (!Object.hasOwn(COMMANDS, path[0]!) || HIDDEN_COMMANDS.has(path[0]!))
    throw new UsageError(`help: unknown command '${path[0]}' (see 'tokenintel --help' for the commands)`);
  const at = words[0].at;
  return { argv: [...argv.slice(0, at), ...argv.slice(at + 1), "--help"], path };
}

/** Checks the words after the command in `help config set`: each must name a subcommand. */
function checkHelpPath(program: import("commander").Command, path: string[]): void {
  let cmd = program;
  for (const [i, name] of path.entries()) {
    if (i > 0 && cmd.commands.length === 0) return; // the rest are the command's arguments
    const sub = cmd.commands.find((c) => c.name() === name);
    if (!sub) {
      throw new UsageError(
        `help: unknown command '${path.slice(0, i + 1).join(" ")}' (see 'tokenintel ${path.slice(0, i).join(" ")} --help')`,
      );
    }
    cmd = sub;
  }
}

/** Whether the words are global options (and their values) alone, none of them help or version. */
function onlyGlobalOptions(words: readonly string[]): boolean {
  const known = new Set(
    Object.values(GLOBAL_FLAGS as Record<string, Flag>).flatMap((f) => [
      ...(f.flags.match(/--?[a-z0-9-]+/g) ?? []),
      ...(f.negation?.flags.match(/--?[a-z0-9-]+/g) ?? []),
    ]),
  );
  return words
    .filter((w) => w.startsWith("-"))
    .every((w) => known.has(w.replace(/=.*$/, "")) && !/^(-h|--help|-V|--version)$/.test(w));
}

/** The commands that take an option (loaded only to word a usage error). */
async function commandsTaking(option: string): Promise<string[]> {
  const { longName } = await import("../flags/table.js");
  const out: string[] = [];
  for (const [name, load] of Object.entries(COMMANDS)) {
    if (HIDDEN_COMMANDS.has(name)) continue;
    const { flags } = (await load()).default;
    if (Object.values(flags).some((f) => longName(f) === option || f.flags.startsWith(`${option},`)))
      out.push(name);
  }
  return out;
}

/** Maps any failure to one line on stderr and an exit code. */
async function report(error: unknown): Promise<number> {
  const verbose = Boolean(context?.globals.verbose);
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    )
      return ExitCode.ok;
    if (commanderMessage !== undefined && programForHints) {
      const { usageLine } = await import("../help/hints.js");
      io.err(
        `tokenintel: ${await usageLine(commanderMessage, { args: argsForHints, program: programForHints, commandsTaking })}`,
      );
    }
    return ExitCode.usage;
  }
  if (error instanceof CliError) {
    if (error.exitCode !== ExitCode.interrupted) io.err(`tokenintel: ${error.message}`);
    if (verbose && error.stack) writeStack(error.stack);
    return error.exitCode;
  }
  const err = error as Error;
  io.err(
    `tokenintel: unexpected error: ${err?.message ?? String(error)}${verbose ? "" : " (run with --verbose for details)"}`,
  );
  if (verbose && err?.stack) writeStack(err.stack);
  return ExitCode.error;
}

/** A stack for --verbose: its first line quotes the server's message, so it is redacted and inert. */
function writeStack(stack: string): void {
  io.stderr.write(`${io.redact(sanitizeBlock(io.redact(stack)))}\n`);
}

/** `--version --verbose` (in either order, or -V -v) is the long form of `version --verbose`. */
function verboseVersion(argv: string[]): string[] {
  const verbose = readCommandLine(argv.slice(2)).version === "verbose";
  return verbose ? [...argv.slice(0, 2), "version", "--verbose"] : argv;
}

async function main(commandLine: string[]): Promise<void> {
  const argv = verboseVersion(commandLine);
  // `on`, not `once`: a dependency's signal-exit hook re-raises the signal when it finds itself the
  // only listener, which would kill the process before it can exit with its own code.
  let interrupted = false;
  const onSignal = (code: number) => () => {
    // Ctrl-C while a pager shows a table is the pager's (less stays open); tokenintel waits for it.
    if (code === ExitCode.interrupted && io.paging) return;
    io.endPager();
    if (interrupted) process.exit(code);
    interrupted = true;
    abort.abort(new Error("interrupted"));
    // Give aborted requests a moment to unwind, then leave with the conventional code.
    setTimeout(() => process.exit(code), 50);
  };
  process.on("SIGINT", onSignal(ExitCode.interrupted));
  process.on("SIGTERM", onSignal(143));
  io.onStdoutClosed = () => process.exit(ExitCode.ok);
  io.onStdoutFailed = (error) => {
    io.err(`tokenintel: could not write the output: ${describeFsError(error)}`);
    // Still say what was paid before leaving.
    void closeContext().then(() => process.exit(ExitCode.error));
  };

  let code: number = ExitCode.ok;
  try {
    const help = helpRequest(argv);
    const line = help?.argv ?? argv;
    const target = commandWords(line)[0]?.word;
    const only = target !== undefined && Object.hasOwn(COMMANDS, target) ? target : undefined;
    const program = await buildProgram({
      only,
      contextFor: (cmd) => contextFor(line, cmd),
      write: { out: (s) => io.stdout.write(s), err: (s) => io.stderr.write(s) },
      onError: (message) => {
        commanderMessage = message;
      },
    });
    programForHints = program;
    argsForHints = line.slice(2);
    // Only global options and no command (`tokenintel -v`): say so, rather than print all of help.
    if (target === undefined && !help && line.length > 2 && onlyGlobalOptions(line.slice(2))) {
      const verboseOnly = line.slice(2).some((a) => a === "-v" || a === "--verbose");
      throw new UsageError(
        `no command given${verboseOnly ? " (-v is --verbose; the version is -V or --version)" : ""}; see 'tokenintel --help' for the commands`,
      );
    }
    if (help) checkHelpPath(program, help.path);
    if (line.length <= 2) program.outputHelp();
    else await program.parseAsync(line);
  } catch (error) {
    code = await report(error);
  } finally {
    await closeContext();
  }
  if (abort.signal.aborted) code = ExitCode.interrupted;
  process.exitCode = code;
}

await main(process.argv);
