import { setMaxListeners } from "node:events";
import type { Command } from "commander";
import { CommanderError } from "commander";
import type { Context, SandboxStarter } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { describeFsError } from "../files/errors.js";
import { GLOBAL_FLAGS } from "../flags/global.js";
import { type Flag, valueFlagNames } from "../flags/table.js";
import { IO, type IOOptions } from "../io.js";
import { buildProgram, COMMANDS, fullProgram, HIDDEN_COMMANDS } from "../program.js";
import { sanitizeBlock } from "../terminal/sanitize.js";
import { readCommandLine, type Word } from "./command-line.js";

// One run of the program: reads the command line, validates the global flags before any command
// runs, runs the command, and maps whatever happened to one line and an exit code. The binary
// (src/entry/cli.ts) calls run() with the process's streams, signals and exit; the in-process tests call
// it with their own, so that what they test is what the binary does.

/** Where a run's signals come from: the process, or a test's emitter. */
export interface SignalSource {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
  off(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
}

/** What a run is given of the world; each part defaults to the process's own, except signals and exit. */
export interface RunHost {
  stdin?: IOOptions["stdin"];
  stdout?: IOOptions["stdout"];
  stderr?: IOOptions["stderr"];
  env?: NodeJS.ProcessEnv;
  /** SIGINT and SIGTERM abort the run (listened to while it runs, then let go). */
  signals?: SignalSource;
  /**
   * Leaves at once with a code (the binary: process.exit): stdout's reader went away, a second
   * Ctrl-C. Without it, the run is aborted and run() resolves with that code.
   */
  exit?: (code: number) => void;
}

/**
 * The local API that --sandbox runs every command against, started in-process on 127.0.0.1 (a free
 * port) when a command first asks for its client: handed to the context from here, the one place
 * that wires the program, and loaded only by a run that asks for it.
 */
const SANDBOX: SandboxStarter = {
  demoKey: async () => (await import("../sandbox/tokens.js")).SANDBOX_API_KEY,
  start: async ({ liveSeconds }) =>
    (await import("../sandbox/server.js")).startSandbox({ port: 0, liveSeconds }),
};

/**
 * The run's abort controller. Every request waiting for its turn or in flight listens to its signal
 * (and takes its listener off after): a command walking two endpoints eight at a time has more than
 * Node's 10 and got a MaxListenersExceededWarning on stderr, a leak that is not one.
 */
function runAbort(): AbortController {
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  return abort;
}

/** Runs `tokenintel ...args` and resolves with its exit code; sets nothing on the process. */
export async function run(args: readonly string[], host: RunHost = {}): Promise<number> {
  return new Run(host).main(["node", "tokenintel", ...args]);
}

class Run {
  private readonly abort = runAbort();
  private readonly io: IO;
  private context: Context | undefined;
  /** Commander's message for a usage error, printed by report() with its hint. */
  private commanderMessage: string | undefined;
  private programForHints: Command | undefined;
  private argsForHints: string[] = [];
  private closing: Promise<void> | undefined;
  /** The code an exit asked for, when the host has no exit of its own. */
  private exitCode: number | undefined;
  /** The code of the first signal (130 for SIGINT, 143 for SIGTERM). */
  private signalCode: number | undefined;

  constructor(private readonly host: RunHost) {
    this.io = new IO({ stdin: host.stdin, stdout: host.stdout, stderr: host.stderr, env: host.env });
  }

  /** Leaves with `code`: at once in the binary; in-process, the run is aborted and ends with it. */
  private exit(code: number): void {
    if (this.host.exit) {
      this.host.exit(code);
      return;
    }
    this.exitCode ??= code;
    this.abort.abort(new Error("exit"));
  }

  /** Ends the run's context once (connections, sandbox, and the summary of anything paid). */
  private closeContext(): Promise<void> {
    this.closing ??= this.context?.close().catch(() => {}) ?? Promise.resolve();
    return this.closing;
  }

  /** The run's context, made once from the global flags (checked here, before the command runs). */
  private async contextFor(argv: readonly string[], cmd: Command): Promise<Context> {
    if (this.context) return this.context;
    const [{ parseFlags }, { Context }] = await Promise.all([
      import("../flags/parse.js"),
      import("../context.js"),
    ]);
    const { io } = this;
    const globals = parseFlags(GLOBAL_FLAGS, cmd.optsWithGlobals());
    if (globals.color === false) io.setColorMode("never");
    else if (globals.color !== undefined) io.setColorMode(globals.color);
    if (globals.pager === false) io.pagerEnabled = false;
    Context.sandboxStarter = SANDBOX;
    this.context = new Context(io, globals, this.abort.signal, argv.slice(2), fullProgram);
    return this.context;
  }

  /** Maps any failure to one line on stderr and an exit code. */
  private async report(error: unknown): Promise<number> {
    const { io } = this;
    const verbose = Boolean(this.context?.globals.verbose);
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.exitCode === 0
      )
        return ExitCode.ok;
      if (this.commanderMessage !== undefined && this.programForHints) {
        const { usageLine } = await import("../help/hints.js");
        const hints = { args: this.argsForHints, program: this.programForHints, commandsTaking };
        io.err(`tokenintel: ${await usageLine(this.commanderMessage, hints)}`);
      }
      return ExitCode.usage;
    }
    if (error instanceof CliError) {
      if (error.exitCode !== ExitCode.interrupted) io.err(`tokenintel: ${error.message}`);
      if (verbose && error.stack) this.writeStack(error.stack);
      return error.exitCode;
    }
    const err = error as Error;
    io.err(
      `tokenintel: unexpected error: ${err?.message ?? String(error)}${verbose ? "" : " (run with --verbose for details)"}`,
    );
    if (verbose && err?.stack) this.writeStack(err.stack);
    return ExitCode.error;
  }

  /** A stack for --verbose: its first line quotes the server's message, so it is redacted and inert. */
  private writeStack(stack: string): void {
    this.io.stderr.write(`${this.io.redact(sanitizeBlock(this.io.redact(stack)))}\n`);
  }

  /** Listens to SIGINT and SIGTERM while the run runs; returns the letting go. */
  private listenToSignals(): () => void {
    const { io, abort, host } = this;
    const signals = host.signals;
    if (!signals) return () => {};
    let timer: NodeJS.Timeout | undefined;
    const onSignal = (code: number) => () => {
      // Ctrl-C while a pager shows a table is the pager's (less stays open); tokenintel waits for it.
      if (code === ExitCode.interrupted && io.paging) return;
      io.endPager();
      if (this.signalCode !== undefined) return this.exit(code);
      this.signalCode = code;
      abort.abort(new Error("interrupted"));
      // A command that stops by itself is waited for (a second signal still ends the run at once).
      if (this.context?.stopsGracefully) return;
      // Give aborted requests a moment to unwind, then leave with the conventional code.
      timer = setTimeout(() => this.exit(code), 50);
    };
    // `on`, not `once`: a dependency's signal-exit hook re-raises the signal when it finds itself the
    // only listener, which would kill the process before it can exit with its own code.
    const onInt = onSignal(ExitCode.interrupted);
    const onTerm = onSignal(143);
    signals.on("SIGINT", onInt);
    signals.on("SIGTERM", onTerm);
    return () => {
      // The binary keeps both until it leaves (its exit timer included); a run in-process lets go.
      if (host.exit) return;
      clearTimeout(timer);
      signals.off("SIGINT", onInt);
      signals.off("SIGTERM", onTerm);
    };
  }

  async main(commandLine: string[]): Promise<number> {
    const { io } = this;
    const argv = verboseVersion(commandLine);
    const letGo = this.listenToSignals();
    io.onStdoutClosed = () => this.exit(ExitCode.ok);
    io.onStdoutFailed = (error) => {
      io.err(`tokenintel: could not write the output: ${describeFsError(error)}`);
      // Still say what was paid before leaving.
      void this.closeContext().then(() => this.exit(ExitCode.error));
    };

    let code: number = ExitCode.ok;
    try {
      const help = helpRequest(argv);
      const line = help?.argv ?? argv;
      const target = commandWords(line)[0]?.word;
      const only = target !== undefined && Object.hasOwn(COMMANDS, target) ? target : undefined;
      const program = await buildProgram({
        only,
        contextFor: (cmd) => this.contextFor(line, cmd),
        write: { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) },
        onError: (message) => {
          this.commanderMessage = message;
        },
      });
      this.programForHints = program;
      this.argsForHints = line.slice(2);
      // Only global options and no command (`tokenintel -v`): say so, rather than print all of help.
      if (target === undefined && !help && line.length > 2 && onlyGlobalOptions(line.slice(2))) {
        const verboseOnly = line.slice(2).some((word) => word === "-v" || word === "--verbose");
        throw new UsageError(
          `no command given${verboseOnly ? " (-v is --verbose; the version is -V or --version)" : ""}; see 'tokenintel --help' for the commands`,
        );
      }
      if (help) checkHelpPath(program, help.path);
      if (line.length <= 2) program.outputHelp();
      else await program.parseAsync(line);
    } catch (error) {
      code = await this.report(error);
    } finally {
      await this.closeContext();
      letGo();
    }
    if (this.exitCode !== undefined) return this.exitCode;
    const stoppedWell = this.context?.stopsGracefully && this.signalCode === 143 && code === ExitCode.ok;
    if (this.abort.signal.aborted && !stoppedWell) code = this.signalCode ?? ExitCode.interrupted;
    return code;
  }
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
function checkHelpPath(program: Command, path: string[]): void {
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
    Object.values(GLOBAL_FLAGS as Record<string, Flag>).flatMap((flag) => [
      ...(flag.flags.match(/--?[a-z0-9-]+/g) ?? []),
      ...(flag.negation?.flags.match(/--?[a-z0-9-]+/g) ?? []),
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

/** `--version --verbose` (in either order, or -V -v) is the long form of `version --verbose`. */
function verboseVersion(argv: string[]): string[] {
  const verbose = readCommandLine(argv.slice(2)).version === "verbose";
  return verbose ? [...argv.slice(0, 2), "version", "--verbose"] : argv;
}
