import { createHash } from "node:crypto";
import { PassThrough, Readable, Writable } from "node:stream";
import {
  type CallToolResult,
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { dotPaths } from "../../api/fields.js";
import { Context, type RunContext } from "../../context.js";
import { CliError, InterruptedError } from "../../errors.js";
import { parseFlags } from "../../flags/parse.js";
import { IO } from "../../io.js";
import { getPath, pickPaths } from "../../json/dot-paths.js";
import { parseJson } from "../../json/exact.js";
import { VERSION } from "../../version.js";
import type { CommandModule } from "../command.js";
import type { DataCommandDefinition } from "../data/definition.js";
import { answer, askAnswer, costOf, failure, isHardFailure, sanitizeMessage } from "./answers.js";
import { Calls } from "./calls.js";
import { compactFields, forAgent, outputSchemaOf } from "./results.js";
import {
  DEFAULT_TOOL_LIMIT,
  inputSchema,
  rawOptions,
  SERVICE_TEXT_NOTE,
  TOOLS,
  type ToolSpec,
} from "./tools.js";
import { decodeCursor, encodeCursor, walkTool } from "./walk.js";

// `tokenintel mcp`: the commands as MCP tools over stdio. A data tool walks its pages itself
// (limit, cursor, exact cost, cancellation, progress); check, history and ask run the command
// in-process with its output captured. Either way: the same checks, caps, cache and exact numbers
// as the command line. stdout carries the protocol only; the server's own notes go to stderr.

/** The payment flags the server was started with, handed to every call of a tool that can pay. */
export type PaymentRaw = Record<string, unknown>;

export interface McpServerOptions {
  /** The server's context: settings, key, cache and rate as the command line set them. */
  ctx: Context;
  /** --pay and its caps, given to every call of a tool that can pay. */
  payment: PaymentRaw;
}

/** Who the server says it is, and what it tells an agent about itself. */
export const SERVER_INFO = { name: "tokenintel", version: VERSION };
export const SERVER_OPTIONS = {
  instructions: `Token intelligence for Base and Solana: market data, risk verdicts, technical analysis, agent tokens, trending tokens, daily history, a token directory and plain-language questions. Numbers are exact; do not round them before comparing. An answer that stops early carries next_cursor. ${SERVICE_TEXT_NOTE}`,
};

/** One call's IO: stdout and stderr captured, no terminal, no stdin, no local file, every secret masked. */
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

/**
 * The SDK's validator, compiled when a tool first answers rather than when it is listed: compiling
 * eight output schemas up front delayed the first answer to initialize by ~0.4 s.
 */
const lazyValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let check: JsonSchemaValidator<T> | undefined;
    return (input: unknown) => {
      check ??= new AjvJsonSchemaValidator().getValidator<T>(schema);
      return check(input);
    };
  },
};

/** Serves on the run's stdin and stdout until the client goes away (stdin ends) or the process ends. */
export async function serveMcp({ ctx, payment }: McpServerOptions): Promise<void> {
  // Two clients for the server's life: one sends the key, one pays (no key); the paying one keeps
  // one payment session, so --max-spend holds across every call.
  const paying = new Context(ctx.io, ctx.globals, ctx.signal, ["mcp"], () => ctx.program());
  const pays = Object.keys(payment).length > 0;
  const server = new McpServer(SERVER_INFO, SERVER_OPTIONS);
  const calls = new Calls();
  for (const tool of TOOLS) {
    const module = (await tool.load()).default;
    const definition = await tool.definition?.();
    // A tool pays when its command can (--pay) and the server was started paying.
    const paid = pays && "pay" in module.flags;
    const payNote = paid
      ? " Each request is paid for (x402) under the server's caps; the answer's cost says what the call paid."
      : "";
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description}${payNote} ${SERVICE_TEXT_NOTE}`,
        inputSchema: inputSchema(tool, module.flags),
        outputSchema: fromJsonSchema(outputSchemaOf(tool, definition), lazyValidator),
        annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: !paid },
      },
      (args: Record<string, unknown>, extra: ServerContext) =>
        calls.run(paid, extra.mcpReq.signal, (signal) =>
          callTool({
            tool,
            paid,
            module,
            definition,
            args,
            signal,
            extra,
            ctx,
            paying,
            payment,
            ended: () => calls.ended,
          }),
        ),
    );
  }
  // The SDK's transport closes the moment its stdin ends, and drops the calls in flight unanswered.
  // It reads a copy of stdin instead, which ends only once those calls have stopped and answered
  // (an error) while stdout is still there to take it. Requests read with the end (`printf … |
  // tokenintel mcp`) are answered first: the copy ends a turn of the event loop after the calls.
  // The transport also closes by itself, on an error of its own: a message over its 10 MiB buffer
  // without a newline. Then stdin is let go (the copy would otherwise keep all the client sends,
  // 1 GB for 1 GB of input) and the run ends with one line saying why.
  const input = new PassThrough();
  const { stdin, stdout } = ctx.io;
  const transport = new StdioServerTransport(input, stdout);
  let transportError: Error | undefined;
  transport.onerror = (error) => {
    transportError = error;
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  let ending = false;
  const end = () => {
    if (ending) return;
    ending = true;
    void new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => calls.end())
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => input.end());
  };
  await server.connect(transport);
  const copy = (chunk: Buffer) => input.write(chunk);
  stdin.on("data", copy);
  stdin.once("end", end);
  stdin.once("error", end);
  if (stdin.readableEnded) end();
  ctx.io.info(`tokenintel mcp: serving ${TOOLS.length} tools on stdio (${VERSION})`);
  await closed;
  stdin.off("data", copy);
  if (ending) {
    await paying.close();
    return;
  }
  // Closed by itself: stdin is no longer read (a paused stdin lets the process leave), and the
  // calls still running stop, as no answer can reach the client any more.
  stdin.off("end", end);
  stdin.off("error", end);
  stdin.pause();
  await calls.end();
  await paying.close();
  throw new CliError(`mcp: stopped reading the client: ${transportError?.message ?? "its input failed"}`);
}

interface ToolCall {
  tool: ToolSpec;
  /** The call pays per request (--pay) instead of sending the key. */
  paid: boolean;
  module: CommandModule;
  definition: DataCommandDefinition | undefined;
  args: Record<string, unknown>;
  signal: AbortSignal;
  extra: ServerContext;
  ctx: Context;
  paying: Context;
  payment: PaymentRaw;
  ended: () => boolean;
}

async function callTool(call: ToolCall): Promise<CallToolResult> {
  const { tool, module, ctx, paying, signal } = call;
  const { io, out, notes } = captureIO(ctx.io);
  const run: RunContext = {
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
  const before = paying.payment?.tally();
  const raw: Record<string, unknown> = { ...rawOptions(tool, call.args, module.flags), json: true };
  if (call.paid) Object.assign(raw, call.payment);
  try {
    const opts = parseFlags(module.flags, raw);
    const value = call.definition
      ? await dataAnswer(call, run, opts as Record<string, unknown>, notes)
      : await commandAnswer(call, run, opts, out, notes);
    const cost = costOf(before, paying.payment?.tally());
    return answer(io, {
      ...value,
      ...(cost ? { cost } : {}),
      ...(notes.length ? { notes: notes.map(forAgent) } : {}),
    });
  } catch (error) {
    const cost = costOf(before, paying.payment?.tally());
    const paid = cost
      ? [`paid before the failure: ${cost.amount} ${cost.asset} for ${cost.payments} request(s)`]
      : [];
    if (error instanceof InterruptedError || signal.aborted) {
      const why = call.ended() ? "the client closed stdin" : "the call was cancelled";
      return failure(io, `${tool.name}: stopped: ${why}`, [...paid, ...notes]);
    }
    const message = error instanceof Error ? error.message : String(error);
    return failure(io, sanitizeMessage(message), [...paid, ...notes]);
  }
}

/** The tool and arguments a cursor continues: all but how much to show and of what. */
function bindingOf(tool: string, args: Record<string, unknown>): string {
  const { limit: _l, cursor: _c, fields: _f, ...rest } = args;
  const stable = JSON.stringify([tool, Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))]);
  return createHash("sha256").update(stable).digest("base64url").slice(0, 16);
}

async function dataAnswer(
  call: ToolCall,
  run: RunContext,
  opts: Record<string, unknown>,
  notes: string[],
): Promise<Record<string, unknown>> {
  const definition = call.definition!;
  const { args } = call;
  const asked = args.fields as string[] | undefined;
  if (asked && asked.length === 0) {
    const fields = dotPaths(definition.shape);
    return { records: [], count: 0, more: false, fields };
  }
  const { parseDataOptions, estimateRequests } = await import("../data/run.js");
  // The call's fields are among its options (rawOptions): read once, as --fields.
  const parsed = await parseDataOptions(run, definition, opts as never);
  const { fields } = parsed;
  const binding = bindingOf(call.tool.name, args);
  const from = typeof args.cursor === "string" ? decodeCursor(args.cursor, binding) : { unit: 1, skip: 0 };
  const client = await run.client({
    keyRequired: !definition.endpoint.keyOptional && !parsed.payment,
    payment: parsed.payment,
    estimate: estimateRequests(parsed.query),
  });
  if (parsed.payment?.dryRun) {
    // A server started with --dry-run says what a call would pay, and reads nothing.
    const [{ planPayment }, { firstRequest }] = await Promise.all([
      import("../../payment/dry-run.js"),
      import("../../api/records.js"),
    ]);
    notes.push(await planPayment(client, run.payment!, firstRequest(parsed.query)));
    return { records: [], count: 0, more: false };
  }
  const progressToken = call.extra.mcpReq._meta?.progressToken;
  const walk = await walkTool({
    client,
    query: parsed.query,
    sort: parsed.sort,
    limit: (args.limit as number | undefined) ?? DEFAULT_TOOL_LIMIT,
    from,
    signal: call.signal,
    mayRead: (more) => run.payment?.refusesMore(more),
    // A --where or --sort field no record of the first page has is refused before the next request.
    afterPage: () => parsed.seen.checkDeciding(),
    onProgress:
      progressToken === undefined
        ? undefined
        : ({ requests, total }) =>
            void call.extra.mcpReq
              .notify({
                method: "notifications/progress",
                params: {
                  progressToken,
                  progress: requests,
                  ...(total !== undefined ? { total } : {}),
                  message: `${requests}${total !== undefined ? ` of ${total}` : ""} requests`,
                },
              })
              .catch(() => {}),
  });
  parsed.seen.checkDeciding();
  notes.push(...walk.notes, ...parsed.seen.notes());
  const shown = fields ?? compactFields(call.tool, definition, walk.records);
  const held = shown.filter((path) => walk.records.some((r) => getPath(r, path) !== undefined));
  const records = walk.records.map((r) => forAgent(pickPaths(r, shown)));
  return {
    records,
    count: records.length,
    more: walk.more,
    ...(walk.next ? { next_cursor: encodeCursor(walk.next, binding) } : {}),
    fields: held,
    pages: { read: walk.requests, total: walk.units ?? null },
    ...(walk.missing.length ? { missing: walk.missing.map(forAgent) } : {}),
  };
}

async function commandAnswer(
  call: ToolCall,
  run: RunContext,
  opts: Record<string, unknown>,
  out: () => string,
  notes: string[],
): Promise<Record<string, unknown>> {
  const { tool, args } = call;
  try {
    const positional = tool.argument ? [String(args[tool.argument.name] ?? "")] : [];
    await call.module.run!(run, opts as never, positional);
  } catch (error) {
    if (isHardFailure(error, out().trim() !== "")) throw error;
    notes.push(error instanceof Error ? error.message : String(error));
  }
  const value = forAgent(parseJson(out() || "null"));
  if (tool.name === "ask") return askAnswer(value);
  const records = Array.isArray(value) ? value : [];
  const missing = notes.flatMap((n) => /^no data for .*?: (.*)$/.exec(n)?.[1]?.split(", ") ?? []);
  return { records, count: records.length, ...(missing.length ? { missing } : {}) };
}
