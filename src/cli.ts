import { Command, CommanderError, Option } from "commander";
import type { Context, GlobalOptions } from "./context.js";
import { CliError, ExitCode } from "./errors.js";
import { IO } from "./io.js";

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
  context = new Context(io, globals, abort.signal);
  return context;
}

const collect = (value: string, previous: string[] | undefined) =>
  previous ? [...previous, value] : [value];

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`;
}

type SelectorFlag = "tickers" | "addresses" | "ids";
const SELECTOR_HELP: Record<SelectorFlag, string> = {
  tickers: "comma-separated tickers (repeatable; write a comma inside a ticker as \\,)",
  addresses: "comma-separated contract or mint addresses (repeatable)",
  ids: "comma-separated token ids (repeatable)",
};

function addOutputOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option("-o, --output <format>", "output format").choices(["table", "json", "ndjson", "csv"]),
    )
    .option("--json", "shorthand for --output json (the default when stdout is not a terminal)")
    .option("--ndjson", "shorthand for --output ndjson: one record per line, as pages arrive")
    .option(
      "--fields <paths>",
      "keep only these comma-separated dot paths, e.g. token_info.symbol,token_metrics.usd_price",
      collect,
    );
}

function dataCommand(
  program: Command,
  name: "market" | "directory" | "agents" | "ta",
  description: string,
  selectors: SelectorFlag[],
  chainNote: string,
  exampleLines: string[],
): Command {
  const cmd = program.command(name).description(description);
  cmd.option("-c, --chain <chain>", `base or solana${chainNote}`);
  for (const s of selectors) cmd.option(`--${s} <list>`, SELECTOR_HELP[s], collect);
  cmd
    .option("-e, --ecosystem <name>", "ecosystem filter, passed through as given (e.g. virtuals)")
    .option("-l, --limit <n>", "stop after n records (requests only the pages needed)")
    .option("--page <n>", "fetch exactly this one page");
  addOutputOptions(cmd);
  cmd.addHelpText("after", examples(exampleLines));
  cmd.action(async (opts, command: Command) => {
    const ctx = await contextFor(command);
    const [{ runDataCommand }, specs] = await Promise.all([
      import("./commands/data-command.js"),
      import("./commands/data-specs.js"),
    ]);
    await runDataCommand(ctx, specs[name], opts);
  });
  return cmd;
}

export function buildProgram(): Command {
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
    .option("-v, --verbose", "log each request (key redacted) and full errors to stderr")
    .option("-q, --quiet", "say nothing on stderr but errors and warnings")
    .option("--no-color", "never colour the output")
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
      outputError: (s, write) => write(`tokenintel: ${s.replace(/^error: /, "")}`),
    });

  dataCommand(
    program,
    "market",
    "market, technical, holder, smart-money, dev-wallet and social data for tokens",
    ["tickers", "addresses", "ids"],
    " (required unless set with 'config set chain')",
    [
      "tokenintel market --sandbox --chain base --ecosystem virtuals --limit 10",
      "tokenintel market -c base --tickers AERO,DEGEN --json | jq '.[].token_metrics.usd_price'",
      "tokenintel market -c solana --ecosystem virtuals --ndjson > virtuals.ndjson",
    ],
  );
  dataCommand(
    program,
    "directory",
    "the paginated directory of indexed tokens (id, symbol, name, address, chain, ecosystem)",
    ["addresses"],
    " (required unless set with 'config set chain')",
    [
      "tokenintel directory --sandbox --chain base --limit 20",
      "tokenintel directory -c solana --ecosystem virtuals -o csv > directory.csv",
    ],
  );
  dataCommand(
    program,
    "agents",
    "agent tokens with their rug status, metrics and insights",
    ["tickers"],
    " (required unless set with 'config set chain')",
    [
      "tokenintel agents --sandbox --chain base --limit 10",
      "tokenintel agents -c base --tickers AIXBT --json | jq '.[0].rug_status'",
    ],
  );
  dataCommand(
    program,
    "ta",
    "multi-interval technical analysis: price change over 1m, 5m, 15m, 1h, 4h, 1d, 1w and 30d",
    ["tickers", "addresses"],
    " (optional)",
    ["tokenintel ta --sandbox --chain base --limit 10", "tokenintel ta -c base --tickers VIRTUAL --json"],
  );

  const ask = program
    .command("ask")
    .description("ask a question in plain language; prints the answer and the tokens it names")
    .argument("<question>", "the question, or - to read it from standard input")
    .option("-c, --chain <chain>", "base or solana (optional)");
  addOutputOptions(ask);
  ask.addHelpText(
    "after",
    examples([
      'tokenintel ask --sandbox "how is $BAKO doing today?"',
      "echo 'top agent tokens by volume' | tokenintel ask - --chain base --json | jq .nlpResponse",
    ]),
  );
  ask.action(async (question: string, opts, command: Command) => {
    const ctx = await contextFor(command);
    const { runAsk } = await import("./commands/ask.js");
    await runAsk(ctx, question, opts);
  });

  program
    .command("api")
    .description("call any API path with your key, retries and safety rules; the output is made for jq")
    .argument("<path>", "a path under the base URL, e.g. /v1/trending")
    .option("-X, --method <method>", "GET or POST", "GET")
    .option(
      "-f, --field <key=value>",
      "a query parameter (GET) or JSON body field (POST), as a string; repeatable",
      collect,
    )
    .option(
      "-F, --raw-field <key=value>",
      "like -f, but typed: numbers, true/false, null, @file (or @- for stdin)",
      collect,
    )
    .option("--input <file>", "send this file (or - for stdin) as the JSON body of a POST")
    .option("--paginate", "walk page=1.. and print all records as ONE JSON document")
    .option("--ndjson", "with --paginate: one record per line instead")
    .option("-l, --limit <n>", "with --paginate: stop after n records")
    .option("-i, --include", "print the status line and response headers to stderr")
    .option("--silent", "print nothing on success")
    .addHelpText(
      "after",
      `${examples([
        "tokenintel api /v1/trending -f chain=base | jq '.data[].symbol'",
        "tokenintel api /v1/trending -f chain=solana --paginate | jq length",
        "tokenintel api -X POST /v1/ask-loky -f question='top agents on base' -f chain=base | jq -r .data.nlpResponse",
        `echo '{"question":"what is trending?"}' | tokenintel api -X POST /v1/ask-loky --input -`,
      ])}
There is no --jq: pipe the output into jq, as above.
`,
    )
    .action(async (path: string, opts, command: Command) => {
      const { runApi } = await import("./commands/api.js");
      await runApi(await contextFor(command), path, opts);
    });

  const auth = program.command("auth").description("manage the API key kept in the local config store");
  auth
    .command("login")
    .description("save an API key: asks for it without echo, or reads it from stdin with --with-token")
    .option("--with-token", "read the key from standard input")
    .addHelpText(
      "after",
      examples(["tokenintel auth login", "printf '%s' \"$KEY\" | tokenintel auth login --with-token"]),
    )
    .action(async (opts, command: Command) => {
      const { runLogin } = await import("./commands/auth.js");
      await runLogin(await contextFor(command), opts);
    });
  auth
    .command("status")
    .description("say which key is active and where it comes from (masked)")
    .action(async (_opts, command: Command) => {
      const { runStatus } = await import("./commands/auth.js");
      await runStatus(await contextFor(command));
    });
  auth
    .command("logout")
    .description("remove the stored key")
    .action(async (_opts, command: Command) => {
      const { runLogout } = await import("./commands/auth.js");
      await runLogout(await contextFor(command));
    });

  const config = program
    .command("config")
    .description("read and change settings: base-url, chain, output, timeout, retries")
    .addHelpText(
      "after",
      examples(["tokenintel config set chain base", "tokenintel config get chain", "tokenintel config list"]),
    );
  for (const [action, args, description] of [
    ["get", "<key>", "print a setting"],
    ["set", "<key> <value>", "change a setting"],
    ["unset", "<key>", "remove a setting"],
    ["list", "", "print all settings"],
    ["path", "", "print the config file's path"],
  ] as const) {
    const sub = config.command(`${action}${args ? ` ${args}` : ""}`).description(description);
    sub.action(async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const { runConfig } = await import("./commands/config.js");
      await runConfig(
        await contextFor(command),
        action,
        params[0] as string | undefined,
        params[1] as string | undefined,
      );
    });
  }

  program
    .command("sandbox")
    .description("run the local sandbox API (deterministic synthetic data, with fault injection for testing)")
    .option("--port <port>", "port to listen on (0 picks a free one)", "4020")
    .option("--host <host>", "loopback address to listen on", "127.0.0.1")
    .option("--tokens <n>", "tokens on base (solana gets 30% of that); default 1000")
    .option("--seed <n>", "seed for the data and the faults")
    .option("--key <key>", "the API key it accepts (default: the printed demo key)")
    .option("--latency <ms>", "added latency per request")
    .option("--fail-rate <p>", "share of requests answered 502")
    .option("--throttle-rate <p>", "share of requests throttled")
    .option(
      "--throttle-status <code>",
      "status for throttled requests (default 429; the live service uses 423)",
    )
    .option("--reset-rate <p>", "share of connections reset before answering")
    .option("--truncate-rate <p>", "share of answers cut off halfway")
    .option("--html-rate <p>", "share of requests answered with a gateway's HTML page")
    .option("--hang-rate <p>", "share of requests never answered")
    .option("--duplicate-rate <p>", "share of pages that repeat a record of the page before")
    .option("--max-in-flight <n>", "throttle requests beyond this many in flight (a concurrency quota)")
    .option("--directory-style <style>", "directory answers: envelope (spec), bare (array) or paginated")
    .option("--x402-version <n>", "x402 protocol version for keyless directory requests: 1 or 2")
    .addHelpText(
      "after",
      examples([
        "tokenintel sandbox",
        "tokenintel sandbox --port 0 --latency 50 --throttle-rate 0.1 --seed 7",
      ]),
    )
    .action(async (opts, command: Command) => {
      const { runSandbox } = await import("./commands/sandbox.js");
      await runSandbox(await contextFor(command), opts);
    });

  return program;
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
    if (error.code === "commander.help" || error.code === "commander.executeSubCommandAsync")
      return ExitCode.usage;
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

  const program = buildProgram();
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
