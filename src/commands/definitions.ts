import { type Command, Option } from "commander";
import { DEFAULT_MAX_PAGES } from "../api/limits.js";
import type { Context } from "../context.js";

// Every command's flags, help and examples, as definitions the program applies on demand: a run
// defines in full only the command it invokes (the rest are a name and a line of help), and each
// action imports its command's code only when it runs.

/** What an action needs from the program: the run's context for the command being run. */
export type ContextFor = (cmd: Command) => Promise<Context>;

export interface CommandDefinition {
  name: string;
  description: string;
  define: (cmd: Command, contextFor: ContextFor, fullProgram: () => Command) => void;
}

const collect = (value: string, previous: string[] | undefined) =>
  previous ? [...previous, value] : [value];

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`;
}

const MAX_PAGES_HELP = `walk at most n pages (default ${DEFAULT_MAX_PAGES}); past them, what was fetched is printed and the run fails (exit 1)`;

type SelectorFlag = "tickers" | "addresses" | "ids";
const SELECTOR_HELP: Record<SelectorFlag, string> = {
  tickers: "comma-separated tickers (repeatable; write a comma inside a ticker as \\,)",
  addresses: "comma-separated contract or mint addresses (repeatable)",
  ids: "comma-separated token ids (repeatable)",
};

function addOutputOptions(cmd: Command): Command {
  return cmd
    .option("--wide", "a table with more columns")
    .option(
      "--columns <paths>",
      "the table's columns by dot path (like --fields, which applies to every format)",
      collect,
    )
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

function addPaymentOptions(cmd: Command): Command {
  return cmd
    .option("--pay", "without an API key, pay per request with x402 (wallet key from TOKENINTEL_WALLET_KEY)")
    .option(
      "--wallet-key-file <path>",
      "read the wallet's private key from this file (never from an argument)",
    )
    .option(
      "--max-payment <amount>",
      "refuse to pay more than this per request, in the asset's units (default 0.01)",
    )
    .option("--max-spend <amount>", "refuse to pay more than this for the whole command (default 0.10)")
    .option("--dry-run", "show what the command would pay per request and in total, without paying");
}

function dataCommand(
  cmd: Command,
  contextFor: ContextFor,
  name: "market" | "directory" | "agents" | "ta",
  selectors: SelectorFlag[],
  chainNote: string,
  exampleLines: string[],
): void {
  cmd.option("-c, --chain <chain>", `base or solana${chainNote}`);
  for (const s of selectors) cmd.option(`--${s} <list>`, SELECTOR_HELP[s], collect);
  cmd
    .option("-e, --ecosystem <name>", "ecosystem filter, passed through as given (e.g. virtuals)")
    .option("-l, --limit <n>", "stop after n records (requests only the pages needed)")
    .option("--page <n>", "fetch exactly this one page")
    .option("--max-pages <n>", MAX_PAGES_HELP)
    .option(
      "--sort <field[:asc|desc]>",
      "sort by any dot path (numbers exactly), e.g. token_metrics.mcap:desc",
    );
  if (name === "market") {
    cmd.addOption(
      new Option("--view <view>", "column set: overview, holders, risk, social or dev").choices([
        "overview",
        "holders",
        "risk",
        "social",
        "dev",
      ]),
    );
  }
  if (name !== "directory") {
    cmd.option(
      "-w, --watch [interval]",
      "redraw every interval (default 10s; never faster than the quota allows)",
    );
  }
  addOutputOptions(cmd);
  if (name === "directory") addPaymentOptions(cmd);
  cmd.addHelpText("after", examples(exampleLines));
  cmd.action(async (opts, command: Command) => {
    const ctx = await contextFor(command);
    const [{ runDataCommand }, specs] = await Promise.all([
      import("./data-command.js"),
      import("./data-specs.js"),
    ]);
    await runDataCommand(ctx, specs[name], opts);
  });
}

export const COMMANDS: CommandDefinition[] = [
  {
    name: "market",
    description: "market, technical, holder, smart-money, dev-wallet and social data for tokens",
    define: (cmd, contextFor) =>
      dataCommand(
        cmd,
        contextFor,
        "market",
        ["tickers", "addresses", "ids"],
        " (required unless set with 'config set chain')",
        [
          "tokenintel market --sandbox --chain base --ecosystem virtuals --limit 10",
          "tokenintel market -c base --tickers AERO,DEGEN --json | jq '.[].token_metrics.usd_price'",
          "tokenintel market -c solana --ecosystem virtuals --ndjson > virtuals.ndjson",
        ],
      ),
  },
  {
    name: "directory",
    description: "the paginated directory of indexed tokens (id, symbol, name, address, chain, ecosystem)",
    define: (cmd, contextFor) =>
      dataCommand(
        cmd,
        contextFor,
        "directory",
        ["addresses"],
        " (required unless set with 'config set chain')",
        [
          "tokenintel directory --sandbox --chain base --limit 20",
          "tokenintel directory -c solana --ecosystem virtuals -o csv > directory.csv",
        ],
      ),
  },
  {
    name: "agents",
    description: "agent tokens with their rug status, metrics and insights",
    define: (cmd, contextFor) =>
      dataCommand(cmd, contextFor, "agents", ["tickers"], " (required unless set with 'config set chain')", [
        "tokenintel agents --sandbox --chain base --limit 10",
        "tokenintel agents -c base --tickers AIXBT --json | jq '.[0].rug_status'",
      ]),
  },
  {
    name: "ta",
    description: "multi-interval technical analysis: price change over 1m, 5m, 15m, 1h, 4h, 1d, 1w and 30d",
    define: (cmd, contextFor) =>
      dataCommand(cmd, contextFor, "ta", ["tickers", "addresses"], " (optional)", [
        "tokenintel ta --sandbox --chain base --limit 10",
        "tokenintel ta -c base --tickers VIRTUAL --json",
      ]),
  },
  {
    name: "ask",
    description: "ask a question in plain language; prints the answer and the tokens it names",
    define: (cmd, contextFor) => {
      const ask = cmd
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
        const { runAsk } = await import("./ask.js");
        await runAsk(ctx, question, opts);
      });
    },
  },
  {
    name: "api",
    description: "call any API path with your key, retries and safety rules; the output is made for jq",
    define: (cmd, contextFor) => {
      addPaymentOptions(cmd);
      cmd
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
        .option("--max-pages <n>", `with --paginate: ${MAX_PAGES_HELP}`)
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
          const { runApi } = await import("./api.js");
          await runApi(await contextFor(command), path, opts);
        });
    },
  },
  {
    name: "auth",
    description: "manage the API key kept in the local config store",
    define: (cmd, contextFor) => {
      const auth = cmd;
      auth
        .command("login")
        .description("save an API key: asks for it without echo, or reads it from stdin with --with-token")
        .option("--with-token", "read the key from standard input")
        .addHelpText(
          "after",
          examples(["tokenintel auth login", "printf '%s' \"$KEY\" | tokenintel auth login --with-token"]),
        )
        .action(async (opts, command: Command) => {
          const { runLogin } = await import("./auth.js");
          await runLogin(await contextFor(command), opts);
        });
      auth
        .command("status")
        .description("say which key is active and where it comes from (masked)")
        .action(async (_opts, command: Command) => {
          const { runStatus } = await import("./auth.js");
          await runStatus(await contextFor(command));
        });
      auth
        .command("logout")
        .description("remove the stored key")
        .action(async (_opts, command: Command) => {
          const { runLogout } = await import("./auth.js");
          await runLogout(await contextFor(command));
        });
    },
  },
  {
    name: "config",
    description: "read and change settings: base-url, chain, output, timeout, retries",
    define: (cmd, contextFor) => {
      const config = cmd.addHelpText(
        "after",
        examples([
          "tokenintel config set chain base",
          "tokenintel config get chain",
          "tokenintel config list",
        ]),
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
          const { runConfig } = await import("./config.js");
          await runConfig(
            await contextFor(command),
            action,
            params[0] as string | undefined,
            params[1] as string | undefined,
          );
        });
      }
    },
  },
  {
    name: "sandbox",
    description: "run the local sandbox API (deterministic synthetic data, with fault injection for testing)",
    define: (cmd, contextFor) => {
      cmd
        .option("--port <port>", "port to listen on (0 picks a free one)", "4020")
        .option("--host <host>", "loopback address to listen on", "127.0.0.1")
        .option("--tokens <n>", "tokens on base (solana gets 30% of that); default 1000")
        .option("--seed <n>", "seed for the data and the faults")
        .option("--key <key>", "the API key it accepts (default: the printed demo key)")
        .option("--latency <ms>", "added latency per request")
        .option("--live <seconds>", "markets move: prices and metrics change every this many seconds")
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
        .option("--x402-network <name>", "where keyless directory requests are paid: base or base-sepolia")
        .option("--x402-price <amount>", "USDC per keyless directory request (default 0.005)")
        .option(
          "--x402-domain-name <name>",
          "name another EIP-712 domain in the requirements (to test refusals)",
        )
        .addHelpText(
          "after",
          examples([
            "tokenintel sandbox",
            "tokenintel sandbox --port 0 --latency 50 --throttle-rate 0.1 --seed 7",
          ]),
        )
        .action(async (opts, command: Command) => {
          const { runSandbox } = await import("./sandbox.js");
          await runSandbox(await contextFor(command), opts);
        });
    },
  },
  {
    name: "completion",
    description: "print a shell completion script: bash, zsh or fish",
    define: (cmd, contextFor, fullProgram) => {
      cmd
        .argument("<shell>", "bash, zsh or fish")
        .addHelpText(
          "after",
          examples([
            "source <(tokenintel completion bash)        # in ~/.bashrc",
            "source <(tokenintel completion zsh)         # in ~/.zshrc",
            "tokenintel completion fish > ~/.config/fish/completions/tokenintel.fish",
          ]),
        )
        .action(async (shell: string, _opts, command: Command) => {
          const { runCompletion } = await import("./completion.js");
          await runCompletion(await contextFor(command), shell, fullProgram());
        });
    },
  },
];
