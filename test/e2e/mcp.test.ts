import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generatePrivateKey } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import MARKET_COMMAND from "../../src/commands/market/index.js";
import { useSandbox, useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";
import type { HostileServer } from "./hostile-server.js";

// `tokenintel mcp` driven by the MCP SDK's own client over stdio, as an agent would: the built
// binary as a subprocess, against the sandbox and hostile servers.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_mcp`;
const WALLET = generatePrivateKey();
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
const clients: Array<{ client: Client; stderr: () => string }> = [];

// The MCP servers a test started are closed after it, and the key and the wallet must not be in
// what they wrote to stderr: the test that leaked is the one that fails.
afterEach(async () => {
  for (const { client, stderr } of clients.splice(0)) {
    await client.close().catch(() => {});
    expect(stderr(), "a secret reached the MCP server's stderr in this test").not.toContain(KEY);
    expect(stderr(), "a secret reached the MCP server's stderr in this test").not.toContain(WALLET.slice(2));
  }
});

async function connect(args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: { ...baseEnv(dir.path), TOKENINTEL_API_KEY: KEY, ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "tokenintel-test", version: "1" });
  await client.connect(transport);
  const entry = { client, stderr: () => stderr, transport };
  clients.push(entry);
  return entry;
}

type Structured = { records: Array<Record<string, unknown>>; count: number; more: boolean };

describe("tokenintel mcp", () => {
  it("lists one read-only tool per data command, with schemas from the CLI's own flags", async () => {
    const { client, stderr } = await connect(["--base-url", sandbox.url, "mcp"]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "market",
      "directory",
      "agents",
      "ta",
      "trending",
      "check",
      "ask",
    ]);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.description!.length, t.name).toBeGreaterThan(40);
    }
    const market = tools.find((t) => t.name === "market")!;
    const props = market.inputSchema.properties as Record<string, Record<string, unknown>>;
    // One source of truth: the tool's parameter says what the CLI's flag says.
    expect(props.where!.description).toBe(MARKET_COMMAND.flags.where.description);
    expect(props.chain!.enum).toEqual(["base", "solana"]);
    expect(props.tickers!.type).toBe("array");
    expect(props.limit!.maximum).toBe(500);
    for (const gone of ["watch", "json", "output", "wide", "pay", "maxSpend"])
      expect(props[gone], gone).toBeUndefined();
    const ask = tools.find((t) => t.name === "ask")!;
    expect(ask.inputSchema.required).toEqual(["question"]);
    expect(stderr()).toMatch(/tokenintel mcp: serving 7 tools on stdio/);
  });

  it("answers each tool with structured records, exact, bounded, and a note when more exist", async () => {
    const { client } = await connect(["--base-url", sandbox.url, "mcp"]);
    const token = sandbox.data.list("base", "virtuals")[1]!;
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      return r as unknown as {
        structuredContent: Structured & Record<string, unknown>;
        content: Array<{ text: string }>;
      };
    };
    const market = await call("market", { chain: "base", ecosystem: "virtuals", limit: 2 });
    expect(market.structuredContent.count).toBe(2);
    expect(market.structuredContent.more).toBe(true);
    expect(market.content[0]!.text).toMatch(/^market: 2 records\nmore exist/);
    const rec = market.structuredContent.records[1] as Record<string, Record<string, unknown>>;
    expect(rec.token_metrics!.usd_price).toBe(
      (sandbox.data.marketRecord(token).token_metrics as Record<string, unknown>).usd_price,
    );
    const all = await call("market", { chain: "base", tickers: [token.symbol] });
    expect(all.structuredContent.more).toBe(false);
    expect(all.structuredContent.records.map((r) => r.id)).toContain(token.id);
    expect((await call("directory", { chain: "base", limit: 3 })).structuredContent.count).toBe(3);
    expect((await call("agents", { chain: "base", limit: 3 })).structuredContent.count).toBe(3);
    expect((await call("ta", { chain: "base", limit: 3 })).structuredContent.count).toBe(3);
    expect((await call("trending", { chain: "base", limit: 3 })).structuredContent.records[0]!.rank).toBe(1);
    const check = await call("check", { chain: "base", ids: [token.id] });
    expect(check.structuredContent.records[0]).toMatchObject({
      id: token.id,
      level: expect.stringMatching(/^(low|medium|high)$/),
    });
    const ask = await call("ask", { question: `how is $${token.symbol}?`, chain: "base", explain: true });
    expect(ask.content[0]!.text).toContain(token.symbol);
    const tokens = ask.structuredContent.tokens as Array<Record<string, unknown>>;
    expect(tokens[0]).toMatchObject({ found: true, symbol: token.symbol });
  });

  it("a bad input is a tool error with the check's words, and the server keeps serving", async () => {
    const { client } = await connect(["--base-url", sandbox.url, "mcp"]);
    const bad = await client.callTool({
      name: "market",
      arguments: { chain: "base", where: ["mcap>5"] },
    });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(
      /--where: unknown field \\"mcap\\" for market \(did you mean token_metrics.mcap\?\)/,
    );
    const wrongType = await client.callTool({ name: "market", arguments: { chain: "ethereum" } });
    expect(wrongType.isError).toBe(true);
    expect(JSON.stringify(wrongType.content)).toMatch(/chain/);
    const ok = await client.callTool({ name: "market", arguments: { chain: "base", limit: 1 } });
    expect(ok.isError).toBeFalsy();
  });

  it("pays only when started with --pay, and a payment a cap refuses is a tool error naming the cap", async () => {
    const { client } = await connect(["--base-url", sandbox.url, "mcp", "--pay", "--max-payment", "0.001"], {
      TOKENINTEL_API_KEY: "",
      TOKENINTEL_WALLET_KEY: WALLET,
    });
    const before = sandbox.stats.payments.accepted;
    const r = await client.callTool({ name: "directory", arguments: { chain: "base", limit: 3 } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/--max-payment 0\.001/);
    expect(sandbox.stats.payments.accepted).toBe(before);
    // Within the cap, the same server pays, once a page.
    const paid = await connect(["--base-url", sandbox.url, "mcp", "--pay", "--max-spend", "0.01"], {
      TOKENINTEL_API_KEY: "",
      TOKENINTEL_WALLET_KEY: WALLET,
    });
    const ok = await paid.client.callTool({ name: "directory", arguments: { chain: "base", limit: 3 } });
    expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
    expect(sandbox.stats.payments.accepted).toBe(before + 1);
    // Every payment is in the ledger, from "tokenintel mcp"; the daily cap counts it across servers.
    const ledger = readFileSync(join(dir.path, "data", "payments.jsonl"), "utf8")
      .trim()
      .split("\n");
    const signed = ledger.map((l) => JSON.parse(l)).filter((l) => l.kind === "signed");
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatchObject({ command: "tokenintel mcp directory", amount: "0.005000" });
    const capped = await connect(["--base-url", sandbox.url, "mcp", "--pay", "--daily-cap", "0.008"], {
      TOKENINTEL_API_KEY: "",
      TOKENINTEL_WALLET_KEY: WALLET,
    });
    const refused = await capped.client.callTool({
      name: "directory",
      arguments: { chain: "base", limit: 3 },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(
      /over the daily cap 0\.008 \(--daily-cap\) by 0\.002 USDC; the cap frees up at \d{4}-/,
    );
    expect(sandbox.stats.payments.accepted).toBe(before + 1);
  });
});

describe("tokenintel mcp when its client goes away", () => {
  let hanging: HostileServer;
  beforeAll(async () => {
    hanging = await servers.stub(() => {
      // Never answers: the call is in flight when the client leaves.
    });
  });

  it("ends, with no request left behind, when the client closes mid-call", async () => {
    const { client, transport } = await connect(["--base-url", hanging.url, "--timeout", "60", "mcp"]);
    const child = (transport as unknown as { _process: import("node:child_process").ChildProcess })._process;
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal])),
    );
    const pending = client
      .callTool({ name: "market", arguments: { chain: "base", limit: 1 } })
      .catch(() => "closed");
    const deadline = Date.now() + 10_000;
    while (hanging.requests.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(hanging.requests).toHaveLength(1);
    await client.close();
    expect(await pending).toBe("closed");
    // It ended on its own when stdin closed (exit 0), not by the SIGTERM the SDK sends 2 s later (143).
    expect(await exited).toEqual([0, null]);
  });
});
