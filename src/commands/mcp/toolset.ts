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
import { argumentValidator } from "./arguments.js";
import { callTool, type PaymentRaw } from "./call.js";
import { Calls } from "./calls.js";
import { instructions, type LoadedTool, listedTool, SERVER_INFO } from "./catalog.js";
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

export class ToolSet {
  readonly calls = new Calls();
  readonly walks = new Walks();
  /** The context that pays: one payment session for the server's life, so --max-spend holds across calls. */
  private readonly paying: Context;

  constructor(
    private readonly ctx: Context,
    private readonly payment: PaymentRaw,
    readonly tools: readonly LoadedTool[],
  ) {
    this.paying = new Context(ctx.io, ctx.globals, ctx.signal, ["mcp"], () => ctx.program());
  }

  /** The server pays per request (it was started with --pay and its caps). */
  private get pays(): boolean {
    return Object.keys(this.payment).length > 0;
  }

  /** A server with every tool, for one connection. */
  server(): McpServer {
    const server = new McpServer(SERVER_INFO, { instructions: instructions(this.tools, this.pays) });
    for (const tool of this.tools) {
      const listed = listedTool(tool);
      server.registerTool(
        tool.spec.name,
        {
          title: tool.spec.title,
          description: tool.spec.description,
          inputSchema: fromJsonSchema(listed.inputSchema as JsonSchemaType, argumentValidator),
          outputSchema: fromJsonSchema(listed.outputSchema as JsonSchemaType, lazyValidator),
          annotations: listed.annotations as { readOnlyHint: boolean; idempotentHint: boolean },
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
