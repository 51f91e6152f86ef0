import { resolve } from "node:path";
import type { RunContext } from "../../context.js";
import { GLOBAL_FLAGS } from "../../flags/global.js";
import { PAYMENT_FLAGS } from "../../flags/payment.js";

// `tokenintel mcp --print-config <client>`: the entry that registers this server with an MCP
// client, ready to paste. A client starts servers with a bare environment and often without the
// user's PATH, so the entry names node and tokenintel by absolute path, and carries the settings
// this shell has in its environment (a daily cap exported here would otherwise never reach the
// server). A client starts the server in a folder of its own: a path given relative to this one
// (a flag's, a folder's variable) is written absolute. Secrets are never printed: where one goes,
// the entry holds a placeholder.

export const MCP_CLIENTS = ["claude-desktop", "claude-code", "cursor"] as const;
export type McpClientName = (typeof MCP_CLIENTS)[number];

/** Where each client reads the entry, said on stderr beside it. */
const WHERE: Record<McpClientName, string> = {
  "claude-desktop":
    "add it to claude_desktop_config.json (Claude Desktop: Settings > Developer > Edit Config), then restart Claude Desktop",
  "claude-code":
    "save it as .mcp.json at the project's root, or pass the tokenintel entry to 'claude mcp add-json tokenintel'",
  cursor: "add it to ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project)",
};

/** Settings held in the environment that are secrets: a placeholder stands for them. */
const SECRET_ENV: Record<string, string> = {
  TOKENINTEL_API_KEY: "<your tokenintel API key>",
  TOKENINTEL_WALLET_KEY: "<your wallet's private key (0x...)>",
};

/** Where tokenintel keeps its config, data (the ledger) and cache, when this shell says. */
const FOLDERS = ["TOKENINTEL_CONFIG_DIR", "TOKENINTEL_DATA_DIR", "TOKENINTEL_CACHE_DIR"];

/** The long flags of the server's command line whose value is a path (`<path>`, `<file>`, `<dir>`). */
const PATH_FLAGS = new Set(
  [...Object.values(GLOBAL_FLAGS), ...Object.values(PAYMENT_FLAGS)]
    .filter((flag) => /<(?:path|file|dir)>$/.test(flag.flags))
    .map((flag) => /--[\w-]+/.exec(flag.flags)![0]),
);

/** A value with any URL's user and password taken out (never printed, even if a setting held one). */
function withoutCredentials(value: string): string {
  return value.replace(/(\w+:\/\/)[^/@\s]*@/g, "$1");
}

/**
 * The server's own arguments: this command line without --print-config, never a key, and each
 * path made absolute against this run's folder.
 */
function serverArgs(argv: readonly string[]): { args: string[]; keyOnLine: boolean } {
  const args: string[] = [];
  let keyOnLine = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, value] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg];
    if (PATH_FLAGS.has(name!)) {
      if (value !== undefined) args.push(`${name}=${resolve(value)}`);
      else if (i + 1 < argv.length) args.push(arg, resolve(argv[++i]!));
      else args.push(arg);
      continue;
    }
    if (arg === "--print-config" || arg === "--api-key") {
      keyOnLine ||= arg === "--api-key";
      i++;
      continue;
    }
    if (arg.startsWith("--print-config=")) continue;
    if (arg.startsWith("--api-key=")) {
      keyOnLine = true;
      continue;
    }
    args.push(arg);
  }
  return { args, keyOnLine };
}

export async function printClientConfig(
  ctx: RunContext,
  client: string,
  argv: readonly string[],
): Promise<void> {
  const { realpathSync } = await import("node:fs");
  const { args, keyOnLine } = serverArgs(argv);
  // The settings' variables and the folders, as this shell has them; a URL's credentials never.
  const { settingEnvironment } = await import("../../flags/settings-table.js");
  const carried = new Set([...settingEnvironment().map(([name]) => name), ...FOLDERS]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.io.env))
    if (carried.has(name) && value !== undefined && !(name in SECRET_ENV))
      env[name] = FOLDERS.includes(name) && value !== "" ? resolve(value) : withoutCredentials(value);
  const paying = args.includes("--pay");
  const sandbox = args.includes("--sandbox");
  const key = sandbox || paying ? undefined : await ctx.settings.apiKey().catch(() => undefined);
  if (!sandbox && !paying && (keyOnLine || key === undefined || key.source === "env"))
    env.TOKENINTEL_API_KEY = SECRET_ENV.TOKENINTEL_API_KEY!;
  if (paying && !args.some((a) => a === "--wallet-key-file" || a.startsWith("--wallet-key-file=")))
    env.TOKENINTEL_WALLET_KEY = SECRET_ENV.TOKENINTEL_WALLET_KEY!;
  const bin = realpathSync(process.argv[1] ?? "tokenintel");
  const entry = {
    ...(client === "claude-code" ? { type: "stdio" } : {}),
    command: process.execPath,
    args: [bin, ...args],
    ...(Object.keys(env).length ? { env } : {}),
  };
  await ctx.io.out(`${JSON.stringify({ mcpServers: { tokenintel: entry } }, null, 2)}\n`);
  ctx.io.info(`tokenintel: ${WHERE[client as McpClientName]}`);
}
