import {
  type CallToolResult,
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { Context } from "../../context.js";
import type { Holder } from "../../payment/holders.js";
import { argumentValidator } from "./arguments.js";
import { callTool, type PaymentRaw } from "./call.js";
import { Calls } from "./calls.js";
import { instructions, type LoadedTool, listedTool, SERVER_INFO } from "./catalog.js";
import type { DataWalks } from "./data-call.js";
import { Walks } from "./walks.js";

// The tools as one server's worth of parts: the catalogue (catalog.ts), with the calls, the walks
// and the payment session they share for the server's life, and a factory that makes an SDK server
// from them for each connection the transport opens (both protocol revisions are served from the
// same factory).

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

/** Who makes the calls of a connection over HTTP: a token's name and caps, and its revocation. */
export interface Principal {
  name: string;
  holder: Holder;
  /** Aborted when the token is revoked: its calls stop. */
  revoked: AbortSignal;
}

/** One call as the HTTP server logs it: never an argument's value. */
export interface CallRecord {
  tool: string;
  token: string | undefined;
  status: "ok" | "error" | "stopped";
  ms: number;
  cost: string | undefined;
}

/** A tool as the SDK registers it: its words, its schemas with their validators, its hints. */
function toolConfig(tool: LoadedTool) {
  const listed = listedTool(tool);
  return {
    title: tool.spec.title,
    description: tool.spec.description,
    inputSchema: fromJsonSchema(listed.inputSchema as JsonSchemaType, argumentValidator),
    outputSchema: fromJsonSchema(listed.outputSchema as JsonSchemaType, lazyValidator),
    annotations: listed.annotations as { readOnlyHint: boolean; idempotentHint: boolean },
  };
}
type ToolConfig = ReturnType<typeof toolConfig>;

export class ToolSet {
  readonly calls = new Calls();
  readonly walks: DataWalks = new Walks();
  /** The context that pays: one payment session for the server's life, so --max-spend holds across calls. */
  private readonly paying: Context;

  constructor(
    private readonly ctx: Context,
    private readonly payment: PaymentRaw,
    readonly tools: readonly LoadedTool[],
    /** Told of each call once it has answered. */
    private readonly onCall?: (record: CallRecord) => void,
  ) {
    this.paying = new Context(ctx.io, ctx.globals, ctx.signal, ["mcp"], () => ctx.program());
    this.registrations = tools.map((tool) => ({ tool, config: toolConfig(tool) }));
  }

  /** The server pays per request (it was started with --pay and its caps). */
  private get pays(): boolean {
    return Object.keys(this.payment).length > 0;
  }

  /**
   * Each tool as the SDK registers it, made once for every server of the set: over HTTP a server is
   * made per request, and its output schemas' validators are compiled once, not each time.
   */
  private readonly registrations: ReadonlyArray<{ tool: LoadedTool; config: ToolConfig }>;

  /** A server with every tool, for one connection (over HTTP, a principal's). */
  server(principal?: Principal): McpServer {
    const server = new McpServer(SERVER_INFO, { instructions: instructions(this.tools, this.pays) });
    for (const { tool, config } of this.registrations)
      server.registerTool(tool.spec.name, config, (args: unknown, extra: ServerContext) =>
        this.call(tool, args as Record<string, unknown>, extra, principal),
      );
    return server;
  }

  /** One call, in the server's calls (paid ones one at a time), told to onCall once answered. */
  private async call(
    tool: LoadedTool,
    args: Record<string, unknown>,
    extra: ServerContext,
    principal: Principal | undefined,
  ): Promise<CallToolResult> {
    const started = performance.now();
    const signal = principal
      ? AbortSignal.any([extra.mcpReq.signal, principal.revoked])
      : extra.mcpReq.signal;
    const ended = () =>
      this.calls.ended ?? (principal?.revoked.aborted ? "its token was revoked" : undefined);
    let cost: string | undefined;
    let status: CallRecord["status"] = "stopped";
    try {
      const result = await this.calls.run(tool.paid, signal, (own) =>
        callTool({
          tool,
          args,
          signal: own,
          extra,
          ctx: this.ctx,
          paying: this.paying,
          payment: this.payment,
          walks: this.walks,
          ended,
          holder: principal?.holder,
          onCost: (paid) => {
            cost = paid && `${paid.amount} ${paid.asset}`;
          },
        }),
      );
      status = !result.isError ? "ok" : signal.aborted || ended() ? "stopped" : "error";
      return result;
    } finally {
      const ms = Math.round(performance.now() - started);
      this.onCall?.({ tool: tool.spec.name, token: principal?.name, status, ms, cost });
    }
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
