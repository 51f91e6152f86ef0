import type { ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, expect } from "vitest";
import { BIN, baseEnv } from "./helpers.js";

// `tokenintel mcp` as an agent's client starts it: the built binary as a subprocess, driven by the
// official SDK's client over stdio. Every server a test starts is closed after it, and the
// secrets given here must not be in what it wrote to stderr (the test that leaked is the one that fails).

export interface McpSession {
  client: Client;
  stderr: () => string;
  process: () => ChildProcess;
  exited: Promise<[number | null, string | null]>;
}

export function useMcp(secrets: () => string[] = () => []) {
  const sessions: McpSession[] = [];
  afterEach(async () => {
    for (const { client, stderr } of sessions.splice(0)) {
      await client.close().catch(() => {});
      for (const secret of secrets())
        if (secret)
          expect(stderr(), "a secret reached the MCP server's stderr in this test").not.toContain(secret);
    }
  });
  return async function connect(
    folder: string,
    args: string[],
    env: Record<string, string> = {},
  ): Promise<McpSession> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...args],
      env: { ...baseEnv(folder), ...env },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "tokenintel-test", version: "1" });
    await client.connect(transport);
    const child = (transport as unknown as { _process: ChildProcess })._process;
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal])),
    );
    const session = { client, stderr: () => stderr, process: () => child, exited };
    sessions.push(session);
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
