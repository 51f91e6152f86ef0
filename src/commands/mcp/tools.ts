import * as z from "zod";
import type { Flag, FlagTable } from "../../flags/table.js";
import type { CommandModule } from "../command.js";

// The MCP tools, as data: each is a data command of the CLI, its input schema generated from that
// command's own flag table (so a flag added to `market` appears in the `market` tool), minus what
// only makes sense in a terminal or a long-running pipe. Values an agent sends are turned back into
// the command line's raw option values and checked by the same zod checks the CLI runs.

/** Most records a tool returns by default, and at all: an agent's context is not a pipe. */
export const DEFAULT_TOOL_LIMIT = 50;
export const MAX_TOOL_LIMIT = 500;
/** Most items of one token list (--tickers, --addresses, --ids) a tool takes. */
export const MAX_TOOL_LIST = 100;

/** Flags no tool takes: terminal layout, output format, watching, local writes, and paying (a server setting). */
const LEFT_OUT = new Set([
  "output",
  "json",
  "ndjson",
  "wide",
  "columns",
  "crlf",
  "view",
  "watch",
  "count",
  "changes",
  "diff",
  "limit",
  "maxPages",
  "failOn",
  "sync",
  "pay",
  "walletKeyFile",
  "maxPayment",
  "maxSpend",
  "dailyCap",
  "payNetwork",
  "dryRun",
]);

export interface ToolSpec {
  name: string;
  title: string;
  /** What an agent reads to choose the tool. */
  description: string;
  load: () => Promise<{ default: CommandModule }>;
  /** Pages of records: the tool takes `limit` and says when more exist. */
  pages: boolean;
  /** Whether a call may cost money (x402), when the server runs with --pay. */
  paid: boolean;
  /** The positional argument, if the command takes one (ask's question). */
  argument?: { name: string; description: string };
}

export const TOOLS: ToolSpec[] = [
  {
    name: "market",
    title: "Token market data",
    description:
      "Market, technical, holder, smart-money, dev-wallet and social data for tokens on Base or Solana: price, market cap, volume, liquidity, holders, top-holder shares, dev-wallet selling, mindshare. Select tokens by tickers, addresses or ids, or list an ecosystem. Numbers are exact decimal strings.",
    load: () => import("../market/index.js"),
    pages: true,
    paid: false,
  },
  {
    name: "directory",
    title: "Token directory",
    description:
      "The directory of indexed tokens: id, symbol, name, contract address, chain and ecosystem. Use it to find a token's address or id. Costs 0.005 USDC a page when the server runs with --pay.",
    load: () => import("../directory/index.js"),
    pages: true,
    paid: true,
  },
  {
    name: "agents",
    title: "Agent tokens",
    description:
      "AI-agent tokens with their rug status, metrics, holder insights and social data, on Base or Solana.",
    load: () => import("../agents/index.js"),
    pages: true,
    paid: false,
  },
  {
    name: "ta",
    title: "Technical analysis",
    description:
      "Multi-interval technical analysis per token: price change, RSI, support, resistance and SMA over 1m, 5m, 15m, 1h, 4h, 1d, 1w (changes to 30d).",
    load: () => import("../ta/index.js"),
    pages: true,
    paid: false,
  },
  {
    name: "trending",
    title: "Trending tokens",
    description: "The tokens trending now, ranked, with price, 24h change, volume, liquidity and market cap.",
    load: () => import("../trending/index.js"),
    pages: true,
    paid: false,
  },
  {
    name: "check",
    title: "Token risk verdict",
    description:
      "A risk verdict per token (low, medium or high) with the fields and thresholds behind it: top-10 holder concentration, dev selling, bundled supply, liquidity against market cap, rug status.",
    load: () => import("../check/index.js"),
    pages: false,
    paid: false,
  },
  {
    name: "ask",
    title: "Ask in plain language",
    description:
      "Ask a question about tokens in plain language; returns the answer (markdown) and the tokens it names. Write tickers with a $ ($AIXBT). With explain, also returns each named token's market figures and risk verdict.",
    load: () => import("../ask/index.js"),
    pages: false,
    paid: false,
    argument: { name: "question", description: "the question, e.g. 'how is $AIXBT doing today?'" },
  },
];

/** The zod type of one flag's value as an agent sends it. */
function inputType(flag: Flag): z.ZodType {
  const described = <T extends z.ZodType>(t: T) => t.describe(flag.description);
  switch (flag.kind) {
    case "switch":
      return described(z.boolean());
    case "list":
    case "optionalList":
      return described(z.array(z.string().min(1)).min(1).max(MAX_TOOL_LIST));
    case "repeated":
      return described(z.array(z.string().min(1)).max(20));
    case "choice":
      return described(z.enum(flag.choices as [string, ...string[]]));
    case "count":
      return described(z.number().int().min(1));
    case "whole":
      return described(z.number().int().min(0));
    default:
      return described(z.string());
  }
}

/** The tool's input shape: the command's flags (less LEFT_OUT), its argument, and a bounded limit. */
export function inputShape(tool: ToolSpec, flags: FlagTable): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  if (tool.argument) shape[tool.argument.name] = z.string().min(1).describe(tool.argument.description);
  for (const [key, flag] of Object.entries(flags)) {
    if (LEFT_OUT.has(key) || key.startsWith("__")) continue;
    shape[key] = inputType(flag).optional();
  }
  if (tool.pages)
    shape.limit = z
      .number()
      .int()
      .min(1)
      .max(MAX_TOOL_LIMIT)
      .optional()
      .describe(
        `most records to return (default ${DEFAULT_TOOL_LIMIT}, at most ${MAX_TOOL_LIMIT}); the answer says when more exist`,
      );
  return shape;
}

/** An agent's arguments as commander would have given them: strings, lists as arrays of strings. */
export function rawOptions(
  args: Record<string, unknown>,
  flags: FlagTable,
  argument: string | undefined,
): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key === argument || key === "limit" || value === undefined || !(key in flags)) continue;
    if (typeof value === "number") raw[key] = String(value);
    else raw[key] = value;
  }
  return raw;
}
