import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";
import { initialize, logLines, raw, rpcHeaders, useHttpMcp } from "./mcp-http-client.js";

// `tokenintel mcp --http`: the same tools over Streamable HTTP, to the SDK's clients of both
// revisions, and nothing at all without a token but /healthz.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_http`;
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
const http = useHttpMcp();

const serve = (folder: string, extra: string[] = []) =>
  http.start(folder, ["--base-url", sandbox.url, "mcp", "--http", "127.0.0.1:0", ...extra], {
    TOKENINTEL_API_KEY: KEY,
  });

interface Answer {
  count: number;
  records: Array<Record<string, unknown>>;
  next_cursor?: string;
}
const answerOf = (r: unknown) => {
  const result = r as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as Answer;
};

describe("mcp --http: the tools, with a token", () => {
  it("lists and calls the tools in both revisions: 2026-07-28 per request, 2025 in a session", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "agent");
    const server = await serve(folder);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const modern = await http.client(server.url, token);
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const session = await http.client(server.url, token, "legacy");
    expect(session.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
    const { client: v1, transport } = await http.clientV1(server.url, token);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (const client of [modern, session, v1]) {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["market", "directory", "trending", "check"]),
      );
      expect(
        answerOf(await client.callTool({ name: "trending", arguments: { chain: "base", limit: 3 } })).count,
      ).toBe(3);
    }
  });

  it("a cursor continues for the token that got it, and for no other", async () => {
    const folder = servers.folder();
    const [a, b] = [await http.token(folder, "a"), await http.token(folder, "b")];
    const server = await serve(folder);
    const args = { chain: "base", limit: 2, fields: ["id"] };
    const first = answerOf(
      await (await http.client(server.url, a)).callTool({ name: "market", arguments: args }),
    );
    const other = await (await http.client(server.url, b)).callTool({
      name: "market",
      arguments: { ...args, cursor: first.next_cursor },
    });
    expect((other as CallToolResult).isError).toBe(true);
    expect(JSON.stringify((other as CallToolResult).content)).toMatch(/^\[\{"type":"text","text":"cursor: /);
    const mine = await (await http.client(server.url, a)).callTool({
      name: "market",
      arguments: { ...args, cursor: first.next_cursor },
    });
    expect(answerOf(mine).records[0]!.id).not.toBe(first.records[0]!.id);
  });

  it("logs one JSON line per call on stderr: time, token name, tool, status, ms; never a token or an argument", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "logger");
    const server = await serve(folder);
    const client = await http.client(server.url, token);
    await client.callTool({
      name: "market",
      arguments: { chain: "base", tickers: ["QQSECRETQQ"], strict: true },
    });
    await client.callTool({ name: "trending", arguments: { chain: "base", limit: 1 } });
    const calls = logLines(server.stderr()).filter((l) => l.tool);
    expect(calls.map(({ tool, status, token: name }) => [tool, status, name])).toEqual([
      ["market", "error", "logger"],
      ["trending", "ok", "logger"],
    ]);
    for (const line of calls) {
      expect(Object.keys(line).sort()).toEqual(["ms", "status", "time", "token", "tool"]);
      expect(new Date(line.time as string).toISOString()).toBe(line.time);
      expect(line.ms).toBeTypeOf("number");
    }
    expect(server.stderr()).not.toContain("QQSECRETQQ");
    expect(server.stderr()).not.toContain(KEY);
  });
});

describe("mcp --http: nothing without a token but /healthz", () => {
  it("answers 401 with a Bearer challenge to every method on /mcp without a valid token", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "real");
    const server = await serve(folder);
    const wrong = `ti_${"A".repeat(43)}`;
    for (const authorization of [
      undefined,
      `Bearer ${wrong}`,
      `Basic ${token}`,
      "Bearer",
      `bearer ${token}x`,
    ])
      for (const method of ["POST", "GET", "DELETE"]) {
        const r = await raw(server.url, {
          method,
          headers: { ...rpcHeaders(), ...(authorization ? { authorization } : {}) },
          body: method === "POST" ? initialize : undefined,
        });
        expect(r.status, `${method} ${authorization}`).toBe(401);
        expect(r.headers["www-authenticate"]).toMatch(/^Bearer /);
        expect(r.body).not.toContain(token);
        expect(r.body).not.toContain("tokenintel");
      }
    const health = await raw(`${server.origin}/healthz`);
    expect([health.status, health.body]).toEqual([200, "ok\n"]);
    expect((await raw(`${server.origin}/`)).status).toBe(404);
    expect((await raw(`${server.origin}/mcp/../healthz/x`)).status).toBe(404);
    // The token itself is let in.
    expect(
      (await raw(server.url, { method: "POST", headers: rpcHeaders(token), body: initialize })).status,
    ).toBe(200);
  });

  it("refuses a Host or an Origin not allowed with 403, token or not; --allowed-hosts and --allowed-origins let them in", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "rebind");
    const server = await serve(folder, [
      "--allowed-hosts",
      "mcp.example.com",
      "--allowed-origins",
      "app.example.com",
    ]);
    const post = (headers: Record<string, string>) =>
      raw(server.url, { method: "POST", headers: { ...rpcHeaders(token), ...headers }, body: initialize });
    const port = new URL(server.url).port;
    for (const headers of [
      { host: `evil.example:${port}` } as Record<string, string>,
      { host: `127.0.0.1.nip.io:${port}` },
      { origin: "http://evil.example" },
      { origin: "null" },
    ])
      expect((await post(headers)).status, JSON.stringify(headers)).toBe(403);
    expect((await post({ host: `localhost:${port}` })).status).toBe(200);
    expect((await post({ host: "mcp.example.com" })).status).toBe(200);
    expect((await post({ origin: "https://app.example.com" })).status).toBe(200);
    // Without a token, a request from a place not allowed learns nothing more than 403.
    const anonymous = await raw(server.url, {
      method: "POST",
      headers: { host: "evil.example" },
      body: initialize,
    });
    expect(anonymous.status).toBe(403);
  });

  it("answers 413 to a body over 1 MiB, declared or streamed, before any of it is parsed", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "big");
    const server = await serve(folder);
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const declared = await raw(server.url, { method: "POST", headers: rpcHeaders(token), body: big });
    expect(declared.status).toBe(413);
    const streamed = await raw(server.url, {
      method: "POST",
      headers: { ...rpcHeaders(token), "transfer-encoding": "chunked" },
      body: big,
    });
    expect(streamed.status).toBe(413);
    expect(logLines(server.stderr()).filter((l) => l.status === 413)).toEqual([
      expect.objectContaining({ token: "big" }),
      expect.objectContaining({ token: "big" }),
    ]);
  });

  it("holds each token to --token-rate (429, Retry-After); another token is not held back", async () => {
    const folder = servers.folder();
    const [slow, other] = [await http.token(folder, "slow"), await http.token(folder, "other")];
    const server = await serve(folder, ["--token-rate", "3/min"]);
    const post = (token: string) =>
      raw(server.url, { method: "POST", headers: rpcHeaders(token), body: initialize });
    for (let i = 0; i < 3; i++) expect((await post(slow)).status).toBe(200);
    const held = await post(slow);
    expect(held.status).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await post(other)).status).toBe(200);
  });
});

describe("mcp --http: where it listens", () => {
  it("refuses to listen beyond this machine before any token is made (exit 2, naming tokens add)", async () => {
    const r = await run(["--sandbox", "mcp", "--http", "0.0.0.0:0"], servers.folder());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tokenintel: --http 0\.0\.0\.0: .*'tokenintel mcp tokens add NAME'\n$/);
  });

  it("its flags go with --http, and --http takes [HOST:]PORT", async () => {
    for (const args of [
      ["--max-sessions", "3"],
      ["--token-rate", "5/min"],
      ["--http", "nope:"],
      ["--http", "70000"],
    ]) {
      const r = await run(["--sandbox", "mcp", ...args], servers.folder());
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^tokenintel: --(max-sessions|token-rate|http)/);
    }
  });

  it("mcp --http --sandbox works for a first try: a token, the sandbox's data, no key", async () => {
    const folder = servers.folder();
    const token = await http.token(folder, "first-try");
    const server = await http.start(folder, ["--sandbox", "mcp", "--http", "0"]);
    const client = await http.client(server.url, token);
    expect(
      answerOf(await client.callTool({ name: "directory", arguments: { chain: "solana", limit: 2 } })).count,
    ).toBe(2);
  });
});
