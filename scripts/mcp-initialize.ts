import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { InitializeRecord } from "../src/commands/mcp/early.js";
import { SERVER_INFO, SERVER_OPTIONS } from "../src/commands/mcp/server.js";
import { GLOBAL_FLAGS } from "../src/flags/global.js";
import { valueFlagNames } from "../src/flags/table.js";

// dist/mcp-initialize.json, written by the build: the SDK server's own answer to `initialize`, for
// `tokenintel mcp` to send before the SDK has loaded (src/commands/mcp/early.ts). The server is
// made as `tokenintel mcp` makes it, with a tool registered (tools are what its capabilities
// declare; which tools does not change the answer), and asked once over an in-memory transport.

export async function mcpInitialize(): Promise<InitializeRecord> {
  const server = new McpServer(SERVER_INFO, SERVER_OPTIONS);
  server.registerTool("probe", { description: "a tool, for the capabilities" }, async () => ({
    content: [],
  }));
  const [near, far] = InMemoryTransport.createLinkedPair();
  const answered = new Promise<JSONRPCMessage>((resolve) => {
    near.onmessage = resolve;
  });
  await server.connect(far);
  await near.start();
  await near.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "build", version: "0" },
    },
  });
  const response = (await answered) as InitializeRecord["response"];
  await server.close();
  if (!("result" in response))
    throw new Error(`the SDK server did not answer initialize: ${JSON.stringify(response)}`);
  return {
    supported: [...SUPPORTED_PROTOCOL_VERSIONS],
    latest: LATEST_PROTOCOL_VERSION,
    response,
    valueFlags: valueFlagNames(GLOBAL_FLAGS),
  };
}
