import { Readable, Writable } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Context, type RunContext } from "../../context.js";
import { AuthError, CliError, PaymentError, UsageError } from "../../errors.js";
import { parseFlags } from "../../flags/parse.js";
import type { FlagTable } from "../../flags/table.js";
import { IO } from "../../io.js";
import { LosslessNumber, parseJson } from "../../json/exact.js";
import { VERSION } from "../../version.js";
import { EARLY_ANSWER, type EarlyAnswer } from "./early.js";
import { DEFAULT_TOOL_LIMIT, inputShape, rawOptions, TOOLS, type ToolSpec } from "./tools.js";

// `tokenintel mcp`: the data commands as MCP tools over stdio. Each call runs the command itself,
// in-process, with its output captured: the same checks, paging, caps, cache and exact numbers as
// the command line. stdout carries the protocol only; the server's own notes go to stderr.

/** The payment flags the server was started with, handed to every call of a tool that can pay. */
export type PaymentRaw = Record<string, unknown>;

/** One call's IO: its stdout and stderr captured, no terminal, no stdin. */
function captureIO(server: IO): { io: IO; out: () => string; notes: string[] } {
  const chunks: string[] = [];
  const notes: string[] = [];
  const stdout = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const stderr = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split("\n"))
        if (line.trim()) notes.push(line.replace(/^tokenintel: /, ""));
      done();
    },
  });
  // An agent's arguments never name a file or stdin, and every secret the server knows is masked.
  const io = new IO({
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: server.env,
    color: "never",
    readsLocal: false,
    secretsOf: server,
  });
  return { io, out: () => chunks.join(""), notes };
}

/** JSON as an MCP client reads it: numbers JavaScript cannot hold exactly keep every digit. */
function exactForJson(value: unknown): unknown {
  if (value instanceof LosslessNumber) {
    const raw = value.raw;
    const asNumber = Number(raw);
    if (String(asNumber) === raw) return asNumber;
    // JSON.rawJSON (Node 21+) writes the digits as they came; before it, the digits as a string.
    const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
    return rawJSON ? rawJSON(raw) : raw;
  }
  if (Array.isArray(value)) return value.map(exactForJson);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, exactForJson(v)]));
  return value;
}

function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text }], isError };
}

/** The error a failed call answers with, or undefined when what was fetched stands (a note). */
function failureOf(error: unknown, hasOutput: boolean): string | undefined {
  const hard =
    error instanceof UsageError ||
    error instanceof AuthError ||
    error instanceof PaymentError ||
    !(error instanceof CliError) ||
    !hasOutput;
  if (!hard) return undefined;
  return error instanceof Error ? error.message : String(error);
}

export interface McpServerOptions {
  /** The server's context: settings, key, cache and rate as the command line set them. */
  ctx: Context;
  /** --pay and its caps, given to every call of a tool that can pay. */
  payment: PaymentRaw;
}

/** Who the server says it is, and what it tells an agent about itself (also read by the build). */
export const SERVER_INFO = { name: "tokenintel", version: VERSION };
export const SERVER_OPTIONS = {
  instructions:
    "Token intelligence for Base and Solana: market data, risk verdicts, technical analysis, agent tokens, trending tokens, a token directory and plain-language questions. Numbers are exact decimal strings; do not round them before comparing.",
};

/**
 * The transport, when the shim answered `initialize` before the program loaded (early.ts): the
 * SDK server still reads that request, and its answer is not sent twice. It must be the answer
 * already sent, byte for byte; when it is not, the difference is said on stderr.
 */
function withEarlyAnswer(transport: StdioServerTransport, io: IO): StdioServerTransport {
  const slot = globalThis as Record<symbol, EarlyAnswer | undefined>;
  const early = slot[EARLY_ANSWER];
  if (!early) return transport;
  slot[EARLY_ANSWER] = undefined;
  const send = transport.send.bind(transport);
  let pending: EarlyAnswer | undefined = early;
  transport.send = async (message) => {
    if (pending && "id" in message && message.id === pending.id && !("method" in message)) {
      const line = `${JSON.stringify(message)}\n`;
      if (line !== pending.line)
        io.warn(
          `mcp: the initialize answer sent at start differs from the server's: sent ${pending.line.trim()}, server ${line.trim()}`,
        );
      pending = undefined;
      return;
    }
    return send(message);
  };
  return transport;
}

/** Runs the server until its client goes away (stdin ends) or a signal ends the process. */
export async function serveMcp({ ctx, payment }: McpServerOptions): Promise<void> {
  // Two clients for the server's life: one sends the key, one pays (no key); the paying one keeps
  // one payment session, so --max-spend holds across every call.
  const paying = new Context(ctx.io, ctx.globals, ctx.signal, "tokenintel mcp");
  const server = new McpServer(SERVER_INFO, SERVER_OPTIONS);
  for (const tool of TOOLS) {
    const module = (await tool.load()).default;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.paid
          ? `${tool.description}${Object.keys(payment).length ? "" : " (the server was started without --pay: keyed calls only)"}`
          : tool.description,
        inputSchema: inputShape(tool, module.flags),
        annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
      },
      async (args: Record<string, unknown>, extra: { signal: AbortSignal }) =>
        callTool(tool, module.flags, module.run!, args, extra.signal, ctx, paying, payment),
    );
  }
  const transport = withEarlyAnswer(new StdioServerTransport(), ctx.io);
  // The client closing stdin ends the server, after one turn of the event loop: the requests read
  // with the end (`printf … | tokenintel mcp`) are answered first, and calls still waiting on the
  // network are aborted.
  const end = () => setImmediate(() => void server.close());
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", end);
  });
  await server.connect(transport);
  // The shim pauses stdin when it hands the session over (early.ts); reading starts here. Its
  // client may have gone already.
  process.stdin.resume();
  if (process.stdin.readableEnded) end();
  ctx.io.info(`tokenintel mcp: serving ${TOOLS.length} tools on stdio (${VERSION})`);
  await closed;
  await paying.close();
}

async function callTool(
  tool: ToolSpec,
  flags: FlagTable,
  run: NonNullable<Awaited<ReturnType<ToolSpec["load"]>>["default"]["run"]>,
  args: Record<string, unknown>,
  signal: AbortSignal,
  ctx: Context,
  paying: Context,
  payment: PaymentRaw,
): Promise<CallToolResult> {
  const limit = tool.pages ? ((args.limit as number | undefined) ?? DEFAULT_TOOL_LIMIT) : undefined;
  const raw: Record<string, unknown> = { ...rawOptions(args, flags, tool.argument?.name), json: true };
  // One record more than asked tells whether more exist.
  if (limit !== undefined) raw.limit = String(limit + 1);
  if (tool.paid) Object.assign(raw, payment);
  const { io, out, notes } = captureIO(ctx.io);
  const call: RunContext = {
    io,
    signal: AbortSignal.any([ctx.signal, signal]),
    settings: ctx.settings,
    commandLine: `tokenintel mcp ${tool.name}`,
    get payment() {
      return paying.payment;
    },
    client: (request) => (request.payment ? paying.client(request) : ctx.client(request)),
    store: () => ctx.store(),
    cache: () => ctx.cache(),
    program: () => ctx.program(),
  };
  let failure: string | undefined;
  try {
    const opts = parseFlags(flags, raw);
    const positional = tool.argument ? [String(args[tool.argument.name] ?? "")] : [];
    await run(call, opts, positional);
  } catch (error) {
    failure = failureOf(error, out().trim() !== "");
    if (failure === undefined) notes.push(error instanceof Error ? error.message : String(error));
  }
  if (failure !== undefined)
    return textResult(io.redact([failure, ...notes.filter((n) => !failure!.includes(n))].join("\n")), true);
  const text = out();
  if (!text.trim()) return textResult(io.redact(notes.join("\n") || "no output"));
  const value = exactForJson(parseJson(text));
  if (Array.isArray(value)) {
    const more = limit !== undefined && value.length > limit;
    const records = more ? value.slice(0, limit) : value;
    const summary = [
      `${tool.name}: ${records.length} record${records.length === 1 ? "" : "s"}`,
      more ? `more exist: raise limit (at most 500) or narrow with where/tickers` : "",
      ...notes,
    ]
      .filter(Boolean)
      .join("\n");
    return {
      content: [{ type: "text", text: io.redact(summary) }],
      structuredContent: { records, count: records.length, more },
    };
  }
  // An answer in prose (ask) is the text itself, bounded; the rest is structured.
  const answer = value as { nlpResponse?: unknown; answer?: { nlpResponse?: unknown } };
  const prose = answer.nlpResponse ?? answer.answer?.nlpResponse;
  const summary = [
    typeof prose === "string" ? prose.slice(0, 8000) : `${tool.name}: answered`,
    ...notes,
  ].join("\n");
  return {
    content: [{ type: "text", text: io.redact(summary) }],
    structuredContent: value as Record<string, unknown>,
  };
}
