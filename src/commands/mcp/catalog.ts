import type { Command } from "commander";
import { endpointOfCommand, type McpPart } from "../../contract/endpoints.js";
import { VERSION } from "../../version.js";
import { type CommandModule, moduleOf } from "../command.js";
import type { DataCommandDefinition } from "../data/definition.js";
import { MAX_TOOL_REQUESTS } from "./data-call.js";
import { outputSchemaOf } from "./results.js";
import {
  DEFAULT_TOOL_LIMIT,
  inputSchema,
  type JsonSchema,
  MAX_TOOL_LIMIT,
  MAX_TOOL_LIST,
  SERVICE_TEXT_NOTE,
  type ToolSpec,
} from "./tools.js";
import { WALK_IDLE_MS } from "./walks.js";

// The server's catalogue, without the MCP SDK (so that it can be answered before the SDK loads):
// who the server is, what it tells an agent, and its tools, each derived from the program: a command
// whose registry entry has an MCP part is served as that tool, a command with a tool of its own
// (check's verdict) as its own. No list of tools is kept anywhere else.

/** Who the server says it is. */
export const SERVER_INFO = { name: "tokenintel", version: VERSION };

/** A tool as the server serves it: its spec, its command, and whether its calls pay. */
export interface LoadedTool {
  spec: ToolSpec;
  module: CommandModule;
  definition: DataCommandDefinition | undefined;
  /** Its calls pay per request (--pay on a paying server). */
  paid: boolean;
  /** The names of its arguments (its input schema's properties). */
  arguments: ReadonlySet<string>;
}

/** The tool a command is served as, when it is one: its registry entry's MCP part, or its own. */
export function toolSpecOf(module: CommandModule): ToolSpec | undefined {
  const entry = endpointOfCommand(module.name);
  const part = entry?.mcp as McpPart | { none: string } | undefined;
  if (entry && part && "tool" in part) {
    const required = [
      ...(entry.chainRequired ? ["chain"] : []),
      ...(part.argument ? [part.argument.name] : []),
    ];
    return {
      name: part.tool,
      title: part.title,
      description: part.description,
      compact: part.compact,
      argument: part.argument,
      required,
      needsTokens: entry.selectorRequired,
      defaults: part.defaults,
    };
  }
  return module.tool ? { ...module.tool } : undefined;
}

/** Every tool of the program, in its commands' order; a tool pays when its command takes --pay. */
export async function loadTools(program: Command, pays: boolean): Promise<LoadedTool[]> {
  const modules = program.commands.flatMap((cmd) => moduleOf(cmd) ?? []);
  const tools = await Promise.all(
    modules.map(async (module) => {
      const spec = toolSpecOf(module);
      if (!spec) return [];
      const definition = await module.definition?.();
      const names = Object.keys(
        inputSchema(spec, module.flags, definition !== undefined).properties as object,
      );
      return [{ spec, module, definition, paid: pays && "pay" in module.flags, arguments: new Set(names) }];
    }),
  );
  return tools.flat();
}

/** A tool as tools/list lists it (the SDK lists what toolset.ts registers, the same fields). */
export function listedTool(tool: LoadedTool): JsonSchema {
  const { spec, module, definition } = tool;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: inputSchema(spec, module.flags, definition !== undefined),
    // openWorldHint is true unless said otherwise: the service is the open world.
    annotations: { readOnlyHint: true, idempotentHint: !tool.paid },
    outputSchema: outputSchemaOf(spec, definition),
  };
}

/** What every tool shares, said once to the agent instead of in every tool's schema. */
export function instructions(tools: readonly LoadedTool[], pays: boolean): string {
  const titles = tools.map((t) => t.spec.title.toLowerCase());
  return [
    `Token intelligence for Base and Solana, every tool read-only: ${titles.join("; ")}.`,
    `Arguments: lists are JSON arrays of strings (tickers, addresses, ids: at most ${MAX_TOOL_LIST}; a $ before a ticker is dropped); text at most 200 characters. An argument is data: never a file, a flag or a command.`,
    "Numbers in answers are exact (strings of digits, or JSON numbers): do not round them before comparing. Records carry a compact set of fields; fields: [dot paths such as token_metrics.mcap] asks for others, fields: [] lists every path without a request.",
    "where: conditions every record returned meets, each a dot path, an operator (= != > >= < <=, or ~ for a substring in any case) and a value; numbers compare exactly, null means missing. sort: a dot path with :asc or :desc; it reads every page first.",
    `Paging: limit is ${DEFAULT_TOOL_LIMIT} by default, at most ${MAX_TOOL_LIMIT}; a call makes at most ${MAX_TOOL_REQUESTS} requests. An answer with more: true carries next_cursor: pass it as cursor with the same other arguments (limit and fields may change) to go on; nothing is read twice. A cursor is good on this server while it runs, ${WALK_IDLE_MS / 60_000} minutes after its answer.`,
    "strict: true fails a call when an item of its list matches no token; without it such items are listed in missing.",
    pays
      ? "This server pays per request (x402) under its operator's caps: each answer's cost says what the call paid, and a call refused by a cap says which."
      : "",
    SERVICE_TEXT_NOTE,
  ]
    .filter(Boolean)
    .join("\n");
}
