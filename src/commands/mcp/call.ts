import { Readable, Writable } from "node:stream";
import type { CallToolResult, ServerContext } from "@modelcontextprotocol/server";
import type { ClientRequest, Context, RunContext } from "../../context.js";
import { InterruptedError, UsageError } from "../../errors.js";
import { parseFlags } from "../../flags/parse.js";
import type { FlagTable } from "../../flags/table.js";
import { IO } from "../../io.js";
import { parseJson } from "../../json/exact.js";
import type { Holder } from "../../payment/holders.js";
import { answer, askAnswer, costOf, failure, isHardFailure, sanitizeMessage } from "./answers.js";
import type { LoadedTool } from "./catalog.js";
import { type DataWalks, dataAnswer } from "./data-call.js";
import { forAgent } from "./results.js";
import { rawOptions } from "./tools.js";

// One tool call: its command run in-process with its output captured, the same checks, caps, cache
// and exact numbers as the command line, and what it says told in an agent's words.

/** The payment flags the server was started with, handed to every call of a tool that can pay. */
export type PaymentRaw = Record<string, unknown>;

export interface ToolCall {
  tool: LoadedTool;
  args: Record<string, unknown>;
  signal: AbortSignal;
  extra: ServerContext;
  /** The server's context (the key's client) and the paying one (one payment session for its life). */
  ctx: Context;
  paying: Context;
  payment: PaymentRaw;
  walks: DataWalks;
  /** Why the client is gone, once it is (its connection closed). */
  ended: () => string | undefined;
  /** Whom the call pays for (mcp --http: the token's name and caps), on top of the server's caps. */
  holder?: Holder;
  /** What the call paid, told once it answers (undefined: nothing). */
  onCost?: (cost: ReturnType<typeof costOf>) => void;
}

/** A paying request of the call, for its holder: the session applies the holder's caps too. */
function forHolder(request: ClientRequest, holder: Holder | undefined): ClientRequest {
  const ledger = request.payment?.ledger;
  if (!holder || !ledger) return request;
  return { ...request, payment: { ...request.payment!, ledger: { ...ledger, holder } } };
}

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

export async function callTool(call: ToolCall): Promise<CallToolResult> {
  const { tool, ctx, paying, signal } = call;
  const { io, out, notes } = captureIO(ctx.io);
  const name = tool.spec.name;
  const run: RunContext = {
    io,
    signal: AbortSignal.any([ctx.signal, signal]),
    settings: ctx.settings,
    commandLine: `tokenintel mcp ${name}`,
    get payment() {
      return paying.payment;
    },
    client: (request) =>
      request.payment ? paying.client(forHolder(request, call.holder)) : ctx.client(request),
    store: () => ctx.store(),
    cache: () => ctx.cache(),
    program: () => ctx.program(),
  };
  const before = paying.payment?.tally();
  const raw: Record<string, unknown> = { ...rawOptions(tool.spec, call.args, tool.module.flags), json: true };
  if (tool.paid) Object.assign(raw, call.payment);
  const words = (text: string) => agentWords(text, tool.module.flags, tool.arguments);
  try {
    const opts = parseFlags(tool.module.flags, raw);
    const value = tool.definition
      ? await dataAnswer(
          {
            tool: tool.spec,
            definition: tool.definition,
            args: call.args,
            run,
            signal,
            walks: call.walks,
            scope: call.holder?.name,
            progress: progressOf(call),
          },
          opts as Record<string, unknown>,
          notes,
        )
      : await commandAnswer(call, run, opts, out, notes);
    const cost = costOf(before, paying.payment?.tally());
    call.onCost?.(cost);
    return answer(io, {
      ...value,
      ...(cost ? { cost } : {}),
      ...(notes.length ? { notes: notes.map((n) => forAgent(words(n))) } : {}),
    });
  } catch (error) {
    const cost = costOf(before, paying.payment?.tally());
    call.onCost?.(cost);
    const paid = cost
      ? [`paid before the failure: ${cost.amount} ${cost.asset} for ${cost.payments} request(s)`]
      : [];
    const said = [...paid, ...notes.map(words)];
    if (error instanceof InterruptedError || signal.aborted) {
      const why = call.ended() ?? "the call was cancelled";
      return failure(io, `${name}: stopped: ${why}`, said);
    }
    const message = error instanceof Error ? error.message : String(error);
    return failure(io, sanitizeMessage(words(message)), said);
  }
}

/** Progress notifications for a call whose client asked for them (a progress token). */
function progressOf(call: ToolCall): ((done: number, total: number | undefined) => void) | undefined {
  const progressToken = call.extra.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (done, total) =>
    void call.extra.mcpReq
      .notify({
        method: "notifications/progress",
        params: {
          progressToken,
          progress: done,
          ...(total !== undefined ? { total } : {}),
          message: `${done}${total !== undefined ? ` of ${total}` : ""} requests`,
        },
      })
      .catch(() => {});
}

/**
 * A message of the command line in an agent's words: `--where` is the argument `where`, `--max-pages`
 * stays a flag (the server's, not the agent's). Only the tool's own arguments are renamed.
 */
export function agentWords(text: string, flags: FlagTable, args: ReadonlySet<string>): string {
  return text.replace(/--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\b/g, (whole, long: string) => {
    const key = long.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    const flag = Object.hasOwn(flags, key) ? flags[key] : undefined;
    return args.has(key) && flag?.flags.includes(`--${long}`) ? key : whole;
  });
}

async function commandAnswer(
  call: ToolCall,
  run: RunContext,
  opts: Record<string, unknown>,
  out: () => string,
  notes: string[],
): Promise<Record<string, unknown>> {
  const { spec, module } = call.tool;
  if (Array.isArray(call.args.fields) && call.args.fields.length === 0) {
    // `fields: []` names nothing: the command's own listing of what it takes, said in the refusal.
    await module.run!(run, { ...opts, fields: true } as never, []);
    const paths = out().trim().split("\n").filter(Boolean);
    throw new UsageError(`fields: name at least one of ${paths.join(", ")}`);
  }
  try {
    const positional = spec.argument ? [String(call.args[spec.argument.name] ?? "")] : [];
    await module.run!(run, opts as never, positional);
  } catch (error) {
    // With strict, what the command line fails on after its output (a token with no data) fails the call.
    if (opts.strict === true || isHardFailure(error, out().trim() !== "")) throw error;
    notes.push(error instanceof Error ? error.message : String(error));
  }
  const value = forAgent(parseJson(out() || "null"));
  if (spec.name === "ask") return askAnswer(value);
  const records = Array.isArray(value) ? value : [];
  const missing = notes.flatMap((n) => /^no data for .*?: (.*)$/.exec(n)?.[1]?.split(", ") ?? []);
  return { records, count: records.length, ...(missing.length ? { missing } : {}) };
}
