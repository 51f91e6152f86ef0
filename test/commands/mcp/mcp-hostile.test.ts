import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { start as startRun } from "../harness.js";
import { frame, opening, useMcp } from "../mcp-client.js";

// `tokenintel mcp` against a hostile server, as an attacker would run it: a cancel
// reaches every tool's requests and retry waits, a walk keeps to its request cap, answers keep to
// their size, a key in any JSON spelling is masked, and a cursor continues only its own tool.

const KEY = `sk_hostile_${Math.random().toString(36).slice(2)}_key`;
const servers = useServers();
const connect = useMcp(() => [KEY]);
const start = (url: string, extra: string[] = []) =>
  connect(servers.folder(), ["--base-url", url, ...extra, "mcp"], { TOKENINTEL_API_KEY: KEY });
const param = (req: IncomingMessage, name: string) =>
  new URL(req.url ?? "", "http://x").searchParams.get(name);

/** A listing that claims `pages` pages of 30 new records each, whatever is asked. */
function endless(pages: number) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const page = Number(param(req, "page") ?? 1);
    if (req.url?.startsWith("/v1/crypto-market-historical"))
      return sendJson(res, {
        success: true,
        data: {
          token_symbol: param(req, "token_ticker"),
          token_day_metrics: Array.from({ length: 1000 }, (_, i) => ({
            date_time: new Date(Date.UTC(2000, 0, 1) + ((page - 1) * 1000 + i) * 86_400_000)
              .toISOString()
              .slice(0, 10),
            usd_price: "1",
          })),
        },
        meta: { pagination: { page, pageCount: pages } },
      });
    sendJson(res, {
      success: true,
      data: Array.from({ length: 30 }, (_, i) => ({
        id: `p${page}r${i}${req.url}`,
        token_info: { symbol: `T${i}` },
      })),
      meta: { pagination: { page, pageSize: 30, pageCount: pages, total: pages * 30 } },
    });
  };
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe("tokenintel mcp against a hostile server", () => {
  it("a cancel stops check's and history's requests too, not only the data tools'", async () => {
    for (const [name, args] of [
      ["check", { chain: "base", tickers: ["AAA"] }],
      ["history", { chain: "base", tickers: ["AAA", "BBB"], since: "2000-01-01" }],
    ] as const) {
      const slow = await servers.stub(async (req, res) => {
        await new Promise((r) => setTimeout(r, 30));
        endless(1_000_000)(req, res);
      });
      const { client } = await start(slow.url);
      const controller = new AbortController();
      const call = client
        .callTool({ name, arguments: args }, undefined, { signal: controller.signal })
        .catch((e: Error) => e);
      const deadline = Date.now() + 10_000;
      while (slow.requests.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      await call;
      await new Promise((r) => setTimeout(r, 300));
      const after = slow.requests.length;
      await new Promise((r) => setTimeout(r, 700));
      expect(slow.requests.length, `${name}: requests went on after the cancel`).toBe(after);
    }
  });

  it("stdin closed during a retry wait (Retry-After: 60): the call answers and the server ends in seconds", async () => {
    const busy = await servers.stub((_req, res) => {
      res.writeHead(503, { "retry-after": "60", "content-type": "application/json" });
      res.end('{"success":false,"message":"busy"}');
    });
    const child = startRun(["--base-url", busy.url, "mcp"], servers.folder(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    child.stdin.write(
      opening() +
        frame({ id: 2, method: "tools/call", params: { name: "market", arguments: { chain: "base" } } }),
    );
    const started = Date.now();
    while (busy.requests.length === 0 && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    child.stdin.end();
    expect(await child.done).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000);
    const answer = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((m) => m.id === 2);
    expect(answer?.result?.content?.[0]?.text).toBe("market: stopped: the client closed stdin");
  });

  it("a sorted walk over more pages than a call reads is refused after page 1; a list keeps to the cap", async () => {
    const big = await servers.stub(endless(60));
    const { client } = await start(big.url);
    const sorted = await client.callTool({
      name: "market",
      arguments: { chain: "base", sort: "token_info.symbol" },
    });
    expect((sorted as CallToolResult).isError).toBe(true);
    expect(text(sorted)).toMatch(
      /^sort reads every page, and this listing has 60, more than the 50 one call reads/,
    );
    expect(big.requests).toHaveLength(1);
    const many = await servers.stub(endless(80));
    const { client: lists } = await start(many.url);
    const tickers = Array.from({ length: 100 }, (_, i) => `T${i}`);
    const args = { chain: "base", tickers, limit: 200 };
    const r = await lists.callTool({ name: "market", arguments: args });
    // The first request of the list answers 80 pages: a call reads 50 of them, and says so.
    expect(many.requests).toHaveLength(50);
    const first = (r as CallToolResult).structuredContent as { count: number; next_cursor?: string };
    expect(text(r)).toMatch(/stopped after 50 requests, the most one call makes: next_cursor goes on/);
    expect(first.count).toBe(0);
    // Its continuation reads the 30 pages left of that request, and not one page again.
    const next = await lists.callTool({ name: "market", arguments: { ...args, cursor: first.next_cursor } });
    expect(many.requests).toHaveLength(80);
    expect(new Set(many.requests.map((q) => q.url)).size).toBe(80);
    expect(((next as CallToolResult).structuredContent as { count: number }).count).toBe(200);
  });

  it("a where on a field no record has is refused after the first page, not after every page", async () => {
    const listing = await servers.stub(endless(30));
    const { client } = await start(listing.url);
    const r = await client.callTool({
      name: "market",
      arguments: { chain: "base", where: ["volatility>1"] },
    });
    expect((r as CallToolResult).isError).toBe(true);
    expect(text(r)).toMatch(/"volatility": no record has it in market/);
    expect(listing.requests).toHaveLength(1);
  });

  it("a key in any JSON spelling and invisible characters never reach the agent; a huge string is cut", async () => {
    const escaped = KEY.replace(/_/g, "\\u005f");
    const split = `${KEY.slice(0, 5)}\u00ad${KEY.slice(5)}`;
    const hostile = await servers.stub((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        `{"success":true,"data":[{"id":"a","token_info":{"symbol":"${escaped}","name":"${split}\u200b\u2028x"}},{"id":"b","token_info":{"symbol":"B","name":"${"n".repeat(200_000)}"}}],"meta":{"pagination":{"page":1,"pageCount":1}}}`,
      );
    });
    const { client } = await start(hostile.url);
    const r = await client.callTool({ name: "market", arguments: { chain: "base" } });
    const all = JSON.stringify(r);
    expect(all).not.toContain(KEY);
    expect(all).not.toMatch(/\\u00ad|\\u200b|\\u2028|\u00ad|\u200b|\u2028/);
    const records = (r as CallToolResult).structuredContent!.records as Array<{
      token_info: { name: string };
    }>;
    expect(records[0]!.token_info.name).toBe("***x");
    expect(records[1]!.token_info.name).toMatch(/^n{8000}… \(192000 more characters cut\)$/);
  });

  it("a number past a double's precision keeps every digit, in the text and in the structured content", async () => {
    const digits = "123456789012345678901234567890.123456789";
    const exact = await servers.stub((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        `{"success":true,"data":[{"id":"a","token_metrics":{"mcap":${digits}}}],"meta":{"pagination":{"page":1,"pageCount":1}}}`,
      );
    });
    // Read off the wire: a client's JSON.parse would make a double of it either way.
    const child = startRun(["--base-url", exact.url, "mcp"], servers.folder(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    let out = "";
    const answered = new Promise<string>((resolve) =>
      child.stdout.setEncoding("utf8").on("data", (d) => {
        out += d;
        const found = out.split("\n").find((l) => l.includes('"id":2'));
        if (found) resolve(found);
      }),
    );
    child.stdin.write(
      opening() +
        frame({
          id: 2,
          method: "tools/call",
          params: { name: "market", arguments: { chain: "base", fields: ["token_metrics.mcap"] } },
        }),
    );
    const line = await answered;
    child.stdin.end();
    expect(await child.done).toBe(0);
    const structured = line.slice(line.indexOf('"structuredContent"'));
    expect(structured).toContain(digits);
  });

  it("a cursor continues only the tool that gave it", async () => {
    const listing = await servers.stub(endless(3));
    const { client } = await start(listing.url);
    const first = (await client.callTool({
      name: "agents",
      arguments: { chain: "base", limit: 5 },
    })) as CallToolResult;
    const cursor = (first.structuredContent as { next_cursor: string }).next_cursor;
    const other = await client.callTool({ name: "market", arguments: { chain: "base", limit: 5, cursor } });
    expect(text(other)).toMatch(/^cursor: it continues a call with other arguments/);
  });

  it("a continuation after a failed page delivers no record the walk gave before", async () => {
    let failures = 0;
    const listing = await servers.stub((req, res) => {
      const page = Number(param(req, "page") ?? 1);
      // Page 2 fails once; read again, it repeats a record of page 1 (as the live service does).
      if (page === 2 && failures++ === 0) return sendJson(res, { success: false, error: "busy" }, 500);
      const ids = page === 1 ? Array.from({ length: 30 }, (_, i) => `a${i}`) : ["a5", "b0", "b1"];
      sendJson(res, {
        success: true,
        data: ids.map((id) => ({ id, token_info: { symbol: id.toUpperCase() } })),
        meta: { pagination: { page, pageSize: 30, pageCount: 2, total: 60 } },
      });
    });
    const { client } = await start(listing.url, ["--retries", "0"]);
    const args = { chain: "base", limit: 100 };
    const first = (await client.callTool({ name: "market", arguments: args })) as CallToolResult;
    const answer = first.structuredContent as { count: number; next_cursor?: string; notes?: string[] };
    expect(answer.count).toBe(30);
    expect(answer.notes?.join("\n")).toMatch(/page 2 failed: .*next_cursor tries it again/);
    const next = (await client.callTool({
      name: "market",
      arguments: { ...args, cursor: answer.next_cursor },
    })) as CallToolResult;
    const records = (next.structuredContent as { records: Array<{ id: string }> }).records;
    expect(records.map((r) => r.id)).toEqual(["b0", "b1"]);
    expect(listing.requests.map((q) => new URL(q.url, "http://x").searchParams.get("page"))).toEqual([
      "1",
      "2",
      "2",
    ]);
  });
});

describe("tokenintel mcp against a hostile client", () => {
  it("a message over the transport's 10 MiB without a newline ends the server: one line, exit 1, stdin let go", async () => {
    const child = startRun(["--sandbox", "mcp"], servers.folder());
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    child.stdin.write(opening());
    while (!out.includes("\n")) await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(out.split("\n")[0]!).id).toBe(1);
    const mib = Buffer.alloc(1024 * 1024, "a");
    for (let i = 0; i < 11; i++) child.stdin.write(mib);
    expect(await child.done).toBe(1);
    expect(child.stderr()).toMatch(
      /\ntokenintel: mcp: stopped reading the client: a message of over 10 MiB without a newline\n$/,
    );
    // Nothing reads stdin any more: what the client still sends is not kept (it was, 1 GB for 1 GB).
    expect(child.stdin.listenerCount("data")).toBe(0);
    expect(child.stdin.isPaused()).toBe(true);
    child.stdin.end();
  });
});
