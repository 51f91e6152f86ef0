import { flagTable } from "../../../flags/table.js";
import { defineCommand } from "../../command.js";

// `tokenintel mcp tokens`: the bearer tokens `mcp --http` accepts (store.ts keeps their hashes).

const CAPS = flagTable({
  dailyCap: {
    flags: "--daily-cap <usd>",
    description:
      "with mcp --pay, what this token may have signed in any 24 hours, counted in the payment ledger, on top of the server's own cap",
    kind: "amount",
  },
  maxSpend: {
    flags: "--max-spend <usd>",
    description:
      "with mcp --pay, what this token may sign in all while the server runs, on top of the server's own",
    kind: "amount",
  },
});

const NAME = {
  name: "<name>",
  description: "the token's name: who holds it (letters, digits, '.', '_', '-')",
};

const add = defineCommand({
  name: "add",
  description: "make a token for mcp --http and print it, once, alone on stdout (only its hash is kept)",
  flags: CAPS,
  args: [NAME],
  async run(ctx, opts, [name]) {
    const { addToken } = await import("./run.js");
    await addToken(ctx, name!, opts);
  },
});

const list = defineCommand({
  name: "list",
  description: "the tokens: names, caps, when each was made and last used (never a token)",
  flags: {},
  async run(ctx) {
    const { listTokens } = await import("./run.js");
    await listTokens(ctx);
  },
});

const revoke = defineCommand({
  name: "revoke",
  description: "remove a token: a server running now refuses it from its next request",
  flags: {},
  args: [NAME],
  async run(ctx, _opts, [name]) {
    const { revokeToken } = await import("./run.js");
    await revokeToken(ctx, name!);
  },
});

export const TOKENS_COMMAND = defineCommand({
  name: "tokens",
  description: "the bearer tokens mcp --http accepts: add, list, revoke",
  flags: {},
  examples: [
    "tokenintel mcp tokens add laptop-agent",
    "tokenintel mcp tokens add ci --daily-cap 0.50 --max-spend 0.10",
    "tokenintel mcp tokens list",
  ],
  notes: `A token is 32 random bytes (base64url, after ti_), printed once by 'add'; only its SHA-256
is kept, in mcp-tokens.json in tokenintel's data folder (TOKENINTEL_DATA_DIR, else
$XDG_DATA_HOME/tokenintel), mode 0600. A client sends it as 'Authorization: Bearer <token>'.
'revoke' takes effect on a server that is running, from its next request; its calls still
running stop. Lost a token? Revoke it and add another: the daily cap of a name counts what
the name paid, whichever of its tokens paid it.`,
  subcommands: [add, list, revoke],
});
