import type { Readable, Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect } from "vitest";
import { start } from "./harness.js";

// `tokenintel mcp` driven by the official SDK's client, in-process: the server runs through the
// program's own run() (test/commands/harness.ts) on a pair of pipes, as it runs on a process's stdin
// and stdout, and the client speaks the stdio framing (one JSON message a line) over them. What a
// process adds (its start, stdin's end, exit codes) is tested end to end in test/e2e/mcp/mcp.test.ts.
// Every server a test starts is closed after it, and the secrets given here must not be in what it
// wrote to stderr (the test that leaked is the one that fails).

/** The client's side of the stdio framing, over the in-process server's stdin and stdout. */
class PipeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly input: Writable,
    private readonly output: Readable,
  ) {}

  async start(): Promise<void> {
    this.output.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      try {
        for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    this.output.once("end", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.input.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.input.end();
  }
}

export interface McpSession {
  client: Client;
  stderr: () => string;
  /** The server's exit code, once its client has gone. */
  done: Promise<number>;
}

export function useMcp(secrets: () => string[] = () => []) {
  const sessions: McpSession[] = [];
  afterEach(async () => {
    // Every server is closed first, then checked: a leak found in one leaves none of them running.
    const ended = sessions.splice(0);
    for (const { client, done } of ended) {
      await client.close().catch(() => {});
      await done;
    }
    for (const { stderr } of ended)
      for (const secret of secrets())
        if (secret)
          expect(stderr(), "a secret reached the MCP server's stderr in this test").not.toContain(secret);
  });
  return async function connect(
    folder: string,
    args: string[],
    env: Record<string, string> = {},
  ): Promise<McpSession> {
    const server = start(args, folder, { env });
    const client = new Client({ name: "tokenintel-test", version: "1" });
    // Kept before connecting, so that a server whose handshake fails is closed after the test too.
    const session = { client, stderr: server.stderr, done: server.done };
    sessions.push(session);
    await client.connect(new PipeTransport(server.stdin, server.stdout));
    return session;
  };
}

/** One JSON-RPC message as a client writes it on stdio. */
export const frame = (message: Record<string, unknown>) =>
  `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;

/** What a client writes first: initialize, then initialized. */
export const opening = () =>
  frame({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  }) + frame({ method: "notifications/initialized" });
