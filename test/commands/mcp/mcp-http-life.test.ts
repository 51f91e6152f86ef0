import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";
import { initialize, logLines, raw, rpcHeaders, useHttpMcp } from "./mcp-http-client.js";

// `tokenintel mcp --http` over its life: tokens revoked while it runs, sessions bounded, many
// clients at once, each token's budget, and SIGTERM letting the calls in flight finish.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_life`;
const WALLET = generatePrivateKey();
const servers = useServers();
const http = useHttpMcp();

const text = (r: unknown) => JSON.stringify((r as CallToolResult).content);
const isError = (r: unknown) => (r as CallToolResult).isError === true;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A sandbox whose every answer takes `latencyMs`, and a server on it. */
async function slowServer(folder: string, latencyMs: number, extra: string[] = []) {
  const api = await servers.sandbox({ apiKey: KEY, latencyMs });
  return http.start(folder, ["--base-url", api.url, "mcp", "--http", "0", ...extra], {
    TOKENINTEL_API_KEY: KEY,
  });
}

describe("mcp --http: tokens revoked while it runs", () => {
  it("refuses a revoked token's next request, stops its call running, and closes its sessions", async () => {
    const folder = servers.folder();
    const [gone, kept] = [await http.token(folder, "gone"), await http.token(folder, "kept")];
    const server = await slowServer(folder, 3_000, ["--max-sessions", "1"]);
    const { client: session, transport } = await http.clientV1(server.url, gone);
    const open = () => raw(server.url, { method: "POST", headers: rpcHeaders(kept), body: initialize });
    expect((await open()).status).toBe(503);
    const call = session.callTool({ name: "market", arguments: { chain: "base", tickers: ["VIRTUAL"] } });
    await sleep(200);
    const revoked = await run(["mcp", "tokens", "revoke", "gone"], folder);
    expect(revoked.code, revoked.stderr).toBe(0);
    const answer = await call;
    expect(isError(answer)).toBe(true);
    expect(text(answer)).toMatch(/stopped: its token was revoked/);
    // No restart: the next request with it is refused, its session is gone; another token is served.
    expect(
      (await raw(server.url, { method: "POST", headers: rpcHeaders(gone), body: initialize })).status,
    ).toBe(401);
    const again = await raw(server.url, {
      method: "POST",
      headers: {
        ...rpcHeaders(kept),
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(again.status).toBe(404);
    // Its session is closed once its call has answered: the one place is free again.
    await sleep(2_500);
    expect((await open()).status).toBe(200);
  });
});

describe("mcp --http: sessions", () => {
  it("keeps at most --max-sessions; a new one past it is told 503 until an idle one is closed", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "sessions");
    const server = await slowServer(folder, 0, ["--max-sessions", "2", "--session-idle", "1s"]);
    const first = await http.clientV1(server.url, token);
    await http.clientV1(server.url, token);
    const full = await raw(server.url, { method: "POST", headers: rpcHeaders(token), body: initialize });
    expect(full.status).toBe(503);
    expect(full.body).toMatch(/at most 2 sessions at once \(--max-sessions\)/);
    await sleep(1_200);
    expect(
      (await raw(server.url, { method: "POST", headers: rpcHeaders(token), body: initialize })).status,
    ).toBe(200);
    // The session closed for being idle is gone.
    const stale = await raw(server.url, {
      method: "POST",
      headers: { ...rpcHeaders(token), "mcp-session-id": first.transport.sessionId! },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(stale.status).toBe(404);
  });

  it("a session is its token's: another token naming it finds none", async () => {
    const folder = servers.folder();
    const [a, b] = [await http.token(folder, "a"), await http.token(folder, "b")];
    const server = await slowServer(folder, 0);
    const { transport } = await http.clientV1(server.url, a);
    const other = await raw(server.url, {
      method: "POST",
      headers: {
        ...rpcHeaders(b),
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(other.status).toBe(404);
  });
});

describe("mcp --http: many clients at once", () => {
  const gc = (() => {
    setFlagsFromString("--expose_gc");
    return runInNewContext("gc") as () => void;
  })();
  const heapAfterGc = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };

  it("30 clients at once, 5 calls each, half in sessions, half per request: every call answered, and nothing kept", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "crowd");
    const server = await slowServer(folder, 0, ["--token-rate", "100000/min"]);
    const round = async () => {
      const clients = await Promise.all(
        Array.from({ length: 30 }, (_, i) => http.client(server.url, token, i % 2 ? "modern" : "legacy")),
      );
      const answers = await Promise.all(
        clients.flatMap((client, i) =>
          Array.from({ length: 5 }, (_, j) =>
            client.callTool({ name: "trending", arguments: { chain: "base", limit: 1 + ((i + j) % 3) } }),
          ),
        ),
      );
      answers.forEach((a, n) => {
        expect(isError(a), text(a)).toBe(false);
        expect((a as CallToolResult).structuredContent?.count).toBe(1 + ((Math.floor(n / 5) + (n % 5)) % 3));
      });
      // A 2025 client's session ends when it says so (DELETE); a 2026-07-28 one holds none.
      await Promise.all(
        clients.map((c) => (c.transport as StreamableHTTPClientTransport).terminateSession()),
      );
      await Promise.all(clients.map((c) => c.close()));
    };
    await round();
    const calls = logLines(server.stderr()).filter((l) => l.tool === "trending");
    expect(calls).toHaveLength(150);
    expect(calls.every((l) => l.status === "ok" && l.token === "crowd")).toBe(true);
    // Four rounds more leave the heap where the first left it: a server, a session or a call's
    // state kept would add megabytes a round (a server kept per request: 2.6 MB).
    const before = heapAfterGc();
    for (let i = 0; i < 4; i++) await round();
    expect(heapAfterGc() - before).toBeLessThan(5 * 1024 * 1024);
  });
});

describe("mcp --http --pay: each token's budget", () => {
  const signed = (folder: string) => {
    const file = join(folder, "data", "payments.jsonl");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.kind === "signed");
  };

  it("a token's max-spend and daily cap stop its payments, not another's; the server's daily cap bounds them all", async () => {
    const folder = servers.folder();
    const thrifty = await http.token(folder, "thrifty", ["--max-spend", "0.005"]);
    const capped = await http.token(folder, "capped", ["--daily-cap", "0.005"]);
    const free = await http.token(folder, "free");
    const api = await servers.sandbox({ apiKey: KEY });
    const server = await http.start(
      folder,
      ["--base-url", api.url, "mcp", "--http", "0", "--pay", "--max-spend", "1", "--daily-cap", "0.02"],
      { TOKENINTEL_API_KEY: "", TOKENINTEL_WALLET_KEY: WALLET },
    );
    const pay = async (token: string) =>
      (await http.client(server.url, token)).callTool({
        name: "directory",
        arguments: { chain: "base", limit: 1 },
      });
    expect(isError(await pay(thrifty))).toBe(false);
    const over = await pay(thrifty);
    expect(text(over)).toMatch(/over its max-spend 0\.005/);
    expect(isError(await pay(capped))).toBe(false);
    expect(text(await pay(capped))).toMatch(/over the daily cap 0\.005 \(token capped\)/);
    expect(isError(await pay(free))).toBe(false);
    expect(isError(await pay(free))).toBe(false);
    // 0.020 signed in all: the server's own cap stops every token now.
    expect(text(await pay(free))).toMatch(/over the daily cap 0\.02 \(--daily-cap\)/);
    expect(signed(folder).map((l) => l.holder)).toEqual(["thrifty", "capped", "free", "free"]);
    const costs = logLines(server.stderr()).filter((l) => l.tool === "directory" && l.status === "ok");
    expect(costs.map((l) => [l.token, l.cost])).toEqual([
      ["thrifty", "0.005 USDC"],
      ["capped", "0.005 USDC"],
      ["free", "0.005 USDC"],
      ["free", "0.005 USDC"],
    ]);
    expect(server.stderr()).not.toContain(WALLET.slice(2));
  });
});

describe("mcp --http: SIGTERM", () => {
  it("stops listening, lets the call in flight finish, and ends with exit 0", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "drain");
    const server = await slowServer(folder, 800);
    const client = await http.client(server.url, token);
    const call = client.callTool({ name: "market", arguments: { chain: "base", tickers: ["VIRTUAL"] } });
    await sleep(200);
    const stopping = server.stop();
    const answer = await call;
    expect(isError(answer), text(answer)).toBe(false);
    expect(await stopping).toBe(0);
    await expect(
      raw(server.url, { method: "POST", headers: rpcHeaders(token), body: initialize }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it("a call still running after --stop-grace answers 'stopped', and the run still ends 0", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "late");
    const server = await slowServer(folder, 5_000, ["--stop-grace", "300ms"]);
    const client = await http.client(server.url, token, "legacy");
    const call = client.callTool({ name: "market", arguments: { chain: "base", tickers: ["VIRTUAL"] } });
    await sleep(200);
    const started = Date.now();
    const stopping = server.stop();
    const answer = await call;
    expect(text(answer)).toMatch(/market: stopped: the server stopped/);
    expect(await stopping).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
