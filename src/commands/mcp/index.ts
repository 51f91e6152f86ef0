import { PAYMENT_FLAGS } from "../../flags/payment.js";
import { defineCommand } from "../command.js";

export default defineCommand({
  name: "mcp",
  description:
    "serve the data commands to AI agents as a Model Context Protocol server on stdio (market, directory, agents, ta, trending, check, ask)",
  flags: PAYMENT_FLAGS,
  examples: [
    `printf '%s\\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' | tokenintel mcp --sandbox`,
  ],
  notes: `Register it with an MCP client (Claude Desktop, Cursor, an agent framework) as a command:

  {"mcpServers": {"tokenintel": {"command": "tokenintel", "args": ["mcp"],
                                 "env": {"TOKENINTEL_API_KEY": "your key"}}}}

It reads its settings as every command does: the key from --api-key, TOKENINTEL_API_KEY or
'tokenintel auth login'; --base-url, --cache, --rate, --sandbox. Each tool is a command run
in-process, with the same checks and exact numbers; its answer is the records as structured
content (at most 500, 50 unless the call's limit says otherwise, and a note when more exist) and a
short text. Only 'directory' can cost money, and only when the server runs with --pay (0.005 USDC a
page on the live service); --max-payment, --max-spend (for the server's whole life), --daily-cap
and --dry-run hold as on the command line, every payment goes in the ledger ('tokenintel
payments'), and a payment a cap refuses is a tool error naming the cap and when it frees up. stdout
carries the protocol only; notes go to stderr. It answers initialize as soon as it starts, before
it has read its flags: a bad flag ends it after that answer, with one line on stderr (exit 2). The
server ends when its client closes stdin.`,
  async run(ctx, opts) {
    const [{ serveMcp }, { paymentOptions }, { Context }] = await Promise.all([
      import("./server.js"),
      import("../../payment/options.js"),
      import("../../context.js"),
    ]);
    // Payment flags are checked once, before serving: a bad one is a usage error, not a tool error.
    await paymentOptions(ctx, opts);
    const payment = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
    if (!(ctx instanceof Context)) throw new Error("tokenintel mcp runs with the program's own context");
    await serveMcp({ ctx, payment });
  },
});
