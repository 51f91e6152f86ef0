import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { flagTable } from "../../flags/table.js";
import type { RawPaymentOptions } from "../../payment/options.js";
import { defineCommand } from "../command.js";
import { MCP_CLIENTS } from "./clients.js";
import { HTTP_FLAGS } from "./http/flags.js";
import { TOKENS_COMMAND } from "./tokens/index.js";

const flags = flagTable({
  ...PAYMENT_FLAGS,
  ...HTTP_FLAGS,
  printConfig: {
    flags: "--print-config <client>",
    description: `print the entry that registers this server with an MCP client (${MCP_CLIENTS.join(", ")}), with the flags given here, and exit`,
    kind: "choice",
    choices: MCP_CLIENTS,
    what: "MCP client",
  },
});

export default defineCommand({
  name: "mcp",
  description:
    "serve the data commands to AI agents as read-only tools: a Model Context Protocol server on stdio, or over HTTP with --http",
  flags,
  examples: [
    "tokenintel mcp --print-config claude-desktop",
    "tokenintel mcp --pay --max-spend 0.50 --daily-cap 2 --print-config cursor",
    `printf '%s\\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' | tokenintel mcp --sandbox`,
  ],
  notes: `Register it with an MCP client in one step: --print-config claude-desktop, claude-code or cursor
prints the JSON entry (the absolute paths of node and tokenintel, the flags given beside it, a
file's path made absolute, and the environment a client must pass, with placeholders where a secret
goes: no secret is printed, and --pay needs no wallet key to print it):

  {"mcpServers": {"tokenintel": {"command": "/usr/local/bin/node",
                                 "args": ["/usr/local/lib/node_modules/tokenintel/bin/tokenintel.js", "mcp"]}}}

It reads its settings as every command does: the key from --api-key, TOKENINTEL_API_KEY or
'tokenintel auth login'; --base-url, --cache, --rate, --sandbox. A client starts it with a bare
environment: a setting exported in your shell does not reach it, so put it in the entry (the
printed one carries --daily-cap when TOKENINTEL_DAILY_CAP is set) or in 'tokenintel config'.

It serves clients of the 2026-07-28 revision (server/discover) and 2025 ones (initialize). Each
tool is the command of the same name run in-process, with the same checks and exact numbers; what
every tool shares is said once, in the server's instructions. Records carry a compact set of fields
(fields: [...] asks for others, fields: [] lists them); no answer passes 1 MiB. An answer that stops
early carries next_cursor: it continues from the pages the server already read (no page is read or
paid for twice), and is good on this server while it runs. A tool argument is data: an item
starting with @ or equal to - is refused, never read as a file or stdin. Text the service wrote is
marked as the service's; escape sequences and control characters are removed.

With --pay, every tool pays per request (x402) under --max-payment, --max-spend (for the server's
whole life), --daily-cap and --dry-run, one paid call at a time; each answer's cost says what the
call paid, and every payment is in the ledger ('tokenintel payments'). A sorted paid walk reads
every page: it is refused before it reads on when --max-spend cannot cover it. Without a daily cap,
mcp --pay says so once on stderr. A cancelled call stops and signs nothing more, whether it was
running or waiting its turn. stdout carries the protocol only; notes go to stderr. A bad flag ends
the server at once (exit 2). The server ends when its client closes stdin; a call still running
then answers with an error. A message of over 10 MiB without a newline ends it too, with one line
on stderr and exit 1.

With --http [HOST:]PORT it serves the same tools over Streamable HTTP at /mcp instead (2026-07-28
per request, 2025 clients in sessions), to clients that send a token made by 'tokenintel mcp tokens
add NAME' as the header 'Authorization: Bearer <token>'. It listens on 127.0.0.1 unless a host is
given (PORT 0 picks a free one), will not listen beyond this machine before a token exists, and
writes 'listening http://HOST:PORT/mcp' on stderr when ready. GET /healthz answers 200 to anyone;
nothing else answers without a token (401). A Host other than the address listened on or
--allowed-hosts, and an Origin not in --allowed-origins, are refused (403); so is a body over 1 MiB
(413), a token past --token-rate (429) and a session past --max-sessions (503). Each call is one
JSON line on stderr: time, token name, tool, status, ms, cost; never a token or an argument. With
--pay, a token's own daily cap and max-spend (tokens add --daily-cap, --max-spend) apply on top of
the server's, and each ledger line names the token (a max-spend counts this process's payments,
a daily cap its ledger file's). SIGTERM
stops it: no new request is taken, the calls running get --stop-grace (10 s) to finish, then answer
'stopped'; it exits 0. Behind a TLS proxy, in a container: docs/remote-mcp.md in tokenintel's repository.`,
  subcommands: [TOKENS_COMMAND],
  async run(ctx, opts) {
    const [{ paymentOptions }, { Context }, { httpOptions }] = await Promise.all([
      import("../../payment/options.js"),
      import("../../context.js"),
      import("./http/options.js"),
    ]);
    // Payment flags are checked once, before serving: a bad one is a usage error, not a tool error.
    // The entry to print holds a placeholder for the wallet key: printing it needs none.
    const { printConfig, ...rest } = opts;
    const overHttp = httpOptions(rest, printConfig);
    const paymentFlags: RawPaymentOptions = Object.fromEntries(
      Object.keys(PAYMENT_FLAGS).map((name) => [name, rest[name as keyof typeof rest]]),
    );
    const payment = await paymentOptions(ctx, paymentFlags, { checkOnly: Boolean(printConfig) });
    if (!(ctx instanceof Context)) throw new Error("tokenintel mcp runs with the program's own context");
    if (printConfig) {
      const { printClientConfig } = await import("./clients.js");
      await printClientConfig(ctx, printConfig, ctx.args);
      return;
    }
    if (payment && !payment.dryRun && !payment.ledger?.dailyCap)
      ctx.io.warn(
        "mcp --pay without a daily cap: set one with --daily-cap, TOKENINTEL_DAILY_CAP in the client's entry, or 'tokenintel config set daily-cap <amount>'",
      );
    const raw = Object.fromEntries(Object.entries(paymentFlags).filter(([, value]) => value !== undefined));
    // A 2025-era client's initialize and tools/list are answered while the SDK is not yet loaded
    // (early.ts); TOKENINTEL_MCP_EARLY=0 leaves them to the SDK, for the tests that compare the two.
    const pays = Object.keys(raw).length > 0;
    const { loadTools } = await import("./catalog.js");
    const catalogue = await loadTools(await ctx.program(), pays);
    if (overHttp) {
      // The run's SIGTERM asks the server to stop: it lets its calls finish, then ends (exit 0).
      ctx.stopsGracefully = true;
      const { serveHttp } = await import("./http/serve.js");
      await serveHttp(ctx, raw, catalogue, overHttp);
      return;
    }
    const early =
      ctx.io.env.TOKENINTEL_MCP_EARLY === "0"
        ? undefined
        : await import("./early.js").then(({ answerEarly }) =>
            answerEarly(ctx.io.stdin, ctx.io.stdout, catalogue, pays),
          );
    const { serveMcp } = await import("./server.js");
    await serveMcp({ ctx, payment: raw, catalogue, early });
  },
});
