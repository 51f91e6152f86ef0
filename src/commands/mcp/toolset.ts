import {
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { Context } from "../../context.js";
import { VERSION } from "../../version.js";
import { argumentValidator } from "./arguments.js";
import { callTool, type LoadedTool, type PaymentRaw } from "./call.js";
import { Calls } from "./calls.js";
import { MAX_TOOL_REQUESTS } from "./data-call.js";
import { outputSchemaOf } from "./results.js";
import {
  DEFAULT_TOOL_LIMIT,
  inputSchema,
  MAX_TOOL_LIMIT,
  MAX_TOOL_LIST,
  SERVICE_TEXT_NOTE,
  TOOLS,
} from "./tools.js";
import { WALK_IDLE_MS, Walks } from "./walks.js";

// The tools as one server's worth of parts: loaded once, with the calls, the walks and the payment
// session they share for the server's life, and a factory that makes an SDK server from them for
// each connection the transport opens (both protocol revisions are served from the same factory).

/** Who the server says it is. */
export const SERVER_INFO = { name: "tokenintel", version: VERSION };

/** What every tool shares, said once to the agent instead of in every tool's schema. */
export function instructions(pays: boolean): string {
  return [
    "Token intelligence for Base and Solana: market data, risk verdicts, technical analysis, agent tokens, trending tokens, smart-money flows, staking, daily history, a token directory and plain-language questions. Every tool only reads.",
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

/**
 * The SDK's validator, compiled when a schema is first used rather than when it is listed:
 * compiling every schema up front delayed the first answer to initialize by ~0.4 s.
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

export class ToolSet {
  readonly calls = new Calls();
  readonly walks = new Walks();
  /** The context that pays: one payment session for the server's life, so --max-spend holds across calls. */
  private readonly paying: Context;

  private constructor(
    private readonly ctx: Context,
    private readonly payment: PaymentRaw,
    readonly tools: LoadedTool[],
    private readonly pays: boolean,
  ) {
    this.paying = new Context(ctx.io, ctx.globals, ctx.signal, ["mcp"], () => ctx.program());
  }

  /** The tools loaded; a tool pays when its command can (--pay) and the server was started paying. */
  static async load(ctx: Context, payment: PaymentRaw): Promise<ToolSet> {
    const pays = Object.keys(payment).length > 0;
    const tools = await Promise.all(
      TOOLS.map(async (spec) => {
        const module = (await spec.load()).default;
        const definition = await spec.definition?.();
        const names = Object.keys(inputSchema(spec, module.flags).properties as object);
        return { spec, module, definition, paid: pays && "pay" in module.flags, arguments: new Set(names) };
      }),
    );
    return new ToolSet(ctx, payment, tools, pays);
  }

  /** A server with every tool, for one connection. */
  server(): McpServer {
    const server = new McpServer(SERVER_INFO, { instructions: instructions(this.pays) });
    for (const tool of this.tools) {
      const { spec } = tool;
      server.registerTool(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema: fromJsonSchema(inputSchema(spec, tool.module.flags), argumentValidator),
          outputSchema: fromJsonSchema(outputSchemaOf(spec, tool.definition), lazyValidator),
          // openWorldHint is true unless said otherwise: the service is the open world.
          annotations: { readOnlyHint: true, idempotentHint: !tool.paid },
        },
        (args: unknown, extra: ServerContext) =>
          this.calls.run(tool.paid, extra.mcpReq.signal, (signal) =>
            callTool({
              tool,
              args: args as Record<string, unknown>,
              signal,
              extra,
              ctx: this.ctx,
              paying: this.paying,
              payment: this.payment,
              walks: this.walks,
              ended: () => this.calls.ended,
            }),
          ),
      );
    }
    return server;
  }

  /** The client has gone (`why`, in words): calls stop, answering if they can, and walks end. */
  async end(why: string): Promise<void> {
    await this.calls.end(why);
    this.walks.close();
  }

  async close(): Promise<void> {
    await this.paying.close();
  }
}
