import { describe, expect, it } from "vitest";
import { answerFor, type InitializeRecord, runsMcp } from "../../src/commands/mcp/early.js";

const record: InitializeRecord = {
  supported: ["2025-11-25", "2025-06-18"],
  latest: "2025-11-25",
  response: {
    result: {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "t", version: "1" },
    },
    jsonrpc: "2.0",
    id: 0,
  },
  valueFlags: ["--base-url", "--timeout", "-o"],
};

const request = (over: Record<string, unknown> = {}, params: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 4,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
      ...params,
    },
    ...over,
  });

describe("runsMcp: the command word, past global flags and their values", () => {
  it.each([
    [["mcp"], true],
    [["--base-url", "http://x", "mcp", "--pay"], true],
    [["--base-url=http://x", "mcp"], true],
    [["--sandbox", "mcp"], true],
    [["--timeout", "mcp", "market"], false],
    [["ask", "mcp"], false],
    [["market", "--tickers", "mcp"], false],
    [["--", "mcp"], true],
    [[], false],
  ])("%j → %s", (args, expected) => {
    expect(runsMcp(args, record.valueFlags)).toBe(expected);
  });
});

describe("answerFor", () => {
  it("answers with the recorded response, the request's id and the version it asked for when supported", () => {
    const answer = answerFor(request(), record)!;
    expect(answer.id).toBe(4);
    expect(answer.line).toBe(
      '{"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"t","version":"1"}},"jsonrpc":"2.0","id":4}\n',
    );
    expect(
      JSON.parse(answerFor(request({ id: "x" }, { protocolVersion: "1.0" }), record)!.line),
    ).toMatchObject({
      id: "x",
      result: { protocolVersion: "2025-11-25" },
    });
  });

  it.each([
    ["not JSON", "{"],
    ["another method", request({ method: "ping" })],
    ["JSON-RPC 1", request({ jsonrpc: "1.0" })],
    ["a notification (no id)", request({ id: undefined })],
    ["a null id", request({ id: null })],
    ["a fractional id", request({ id: 1.5 })],
    ["no params", request({ params: undefined })],
    ["a numeric version", request({}, { protocolVersion: 20250618 })],
    ["no capabilities", request({}, { capabilities: undefined })],
    ["no clientInfo", request({}, { clientInfo: undefined })],
    ["a clientInfo without a version", request({}, { clientInfo: { name: "c" } })],
    ["an array", "[1]"],
  ])("leaves %s to the SDK", (_what, line) => {
    expect(answerFor(line, record)).toBeUndefined();
  });
});
