import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Context } from "../../context.js";
import { CliError } from "../../errors.js";
import { VERSION } from "../../version.js";
import type { PaymentRaw } from "./call.js";
import type { LoadedTool } from "./catalog.js";
import type { EarlyRead } from "./early.js";
import { LineTransport } from "./stdio.js";
import { ToolSet } from "./toolset.js";

// `tokenintel mcp`: the tools (toolset.ts) over stdio, both protocol revisions through the SDK's
// serveStdio (a 2026-07-28 client opens with server/discover, a 2025 one with initialize), on the
// run's own stdin and stdout. stdout carries the protocol only; the server's own notes go to stderr.

export type { PaymentRaw } from "./call.js";

export interface McpServerOptions {
  /** The server's context: settings, key, cache and rate as the command line set them. */
  ctx: Context;
  /** --pay and its caps, given to every call of a tool that can pay. */
  payment: PaymentRaw;
  /** The tools (catalog.ts), loaded once for the early answers and the server alike. */
  catalogue: readonly LoadedTool[];
  /** What the early reader read and answered (early.ts), for the wire to read again. */
  early?: EarlyRead;
}

/** What a call stopped by the client's going answers. */
const ENDED = "the client closed stdin";

/** How long the end of stdin waits for requests read with it to be answered. */
const END_WAIT_MS = 2_000;

/** Waits, a turn of the event loop at a time, until `done` or END_WAIT_MS. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + END_WAIT_MS;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Serves on the run's stdin and stdout until the client goes away (stdin ends) or the wire fails. */
export async function serveMcp({ ctx, payment, catalogue, early }: McpServerOptions): Promise<void> {
  const tools = new ToolSet(ctx, payment, catalogue);
  // Said before the wire starts: whatever is written after this line is the SDK server's.
  ctx.io.info(`tokenintel mcp: serving ${tools.tools.length} tools on stdio (${VERSION})`);
  const wire = new LineTransport(ctx.io.stdin, ctx.io.stdout, early);
  const closed = new Promise<void>((resolve) => {
    // serveStdio takes the wire's onclose for itself: the end is seen through close().
    const close = wire.close.bind(wire);
    wire.close = async () => {
      await close();
      resolve();
    };
  });
  const handle = serveStdio(() => tools.server(), {
    transport: wire,
    onerror: (error) => {
      if (ctx.globals.verbose) ctx.io.info(`tokenintel mcp: ${error.message}`);
    },
  });
  // stdin's end: requests read with it are answered first, the tool calls in flight stop and answer
  // while stdout is still there to take them, then the connection closes.
  wire.onInputEnd = () =>
    void (async () => {
      const calls = () => [...wire.unanswered.values()].filter((method) => method === "tools/call").length;
      await until(() => wire.unanswered.size === calls() && tools.calls.size >= calls());
      await tools.end(ENDED);
      await until(() => wire.unanswered.size === 0);
      await handle.close();
    })();
  await closed;
  await tools.end(ENDED);
  await tools.close();
  // Closed by itself: a message over the line limit, or stdin failed.
  if (wire.failure) throw new CliError(`mcp: stopped reading the client: ${wire.failure.message}`);
}
