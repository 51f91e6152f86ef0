import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { useMcp } from "../mcp-client.js";

// `tokenintel mcp` and money, counted at the server: each page is paid for once, however a walk is
// continued (a cursor, a retried continuation, a cancel in the middle), and a cancelled call signs
// nothing more, whether it is running or waiting for its turn, `ask` included.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_money`;
const WALLET = generatePrivateKey();
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
const connect = useMcp(() => [KEY, WALLET.slice(2)]);

const paying = (folder: string, url: string, args: string[] = []) =>
  connect(folder, ["--base-url", url, "mcp", "--pay", "--max-spend", "1", "--daily-cap", "5", ...args], {
    TOKENINTEL_API_KEY: "",
    TOKENINTEL_WALLET_KEY: WALLET,
  });

interface Answer {
  records: Array<Record<string, unknown>>;
  count: number;
  more: boolean;
  next_cursor?: string;
  pages?: { read: number; total: number | null };
  cost?: { payments: number };
  notes?: string[];
}

function structured(result: unknown): Answer {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as unknown as Answer;
}

const signedLines = (folder: string) => {
  const file = join(folder, "data", "payments.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.kind === "signed");
};

const until = async (done: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(done(), "waited too long").toBe(true);
};

describe("tokenintel mcp: each page paid for once", () => {
  it("a walk continued 30 records at a time pays each page of 100 once", async () => {
    const folder = servers.folder();
    const { client } = await paying(folder, sandbox.url);
    const before = sandbox.stats.payments.accepted;
    const ids: string[] = [];
    let cursor: string | undefined;
    let paid = 0;
    for (let call = 0; call < 10; call++) {
      const answer = structured(
        await client.callTool({
          name: "directory",
          arguments: { chain: "base", limit: 30, fields: ["id"], ...(cursor ? { cursor } : {}) },
        }),
      );
      ids.push(...answer.records.map((r) => r.id as string));
      paid += answer.cost?.payments ?? 0;
      cursor = answer.next_cursor;
    }
    // 300 records from 3 pages of 100: three payments, not one a continuation.
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    expect(sandbox.stats.payments.accepted - before).toBe(3);
    expect(paid).toBe(3);
    expect(signedLines(folder)).toHaveLength(3);
  });

  it("a sorted walk reads its pages once: continuations hand out the sorted whole", async () => {
    const folder = servers.folder();
    const { client } = await paying(folder, sandbox.url);
    const before = sandbox.stats.payments.accepted;
    const args = { chain: "base", sort: "symbol:asc", fields: ["symbol"], limit: 5 };
    const first = structured(await client.callTool({ name: "directory", arguments: args }));
    const pages = sandbox.stats.payments.accepted - before;
    // The directory says no page count: its pages, and the empty one that ends it.
    expect(pages).toBeGreaterThan(1);
    let cursor = first.next_cursor;
    const symbols = first.records.map((r) => r.symbol);
    for (let i = 0; i < 5; i++) {
      const next = structured(await client.callTool({ name: "directory", arguments: { ...args, cursor } }));
      expect(next.cost).toBeUndefined();
      expect(next.pages?.read).toBe(0);
      symbols.push(...next.records.map((r) => r.symbol));
      cursor = next.next_cursor;
    }
    expect(sandbox.stats.payments.accepted - before).toBe(pages);
    expect(symbols).toHaveLength(30);
    expect([...symbols].sort()).toEqual(symbols);
  });

  it("with a key, four continuations of a sorted market walk read its 34 pages once", async () => {
    const { client } = await connect(servers.folder(), ["--base-url", sandbox.url, "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const before = sandbox.stats.requests;
    const args = { chain: "base", sort: "token_metrics.mcap:desc", fields: ["id"], limit: 10 };
    let answer = structured(await client.callTool({ name: "market", arguments: args }));
    const pages = answer.pages!.total!;
    expect(pages).toBeGreaterThan(30);
    for (let i = 0; i < 4; i++)
      answer = structured(
        await client.callTool({ name: "market", arguments: { ...args, cursor: answer.next_cursor } }),
      );
    expect(sandbox.stats.requests - before).toBe(pages);
  });

  it("a continuation retried (its answer lost) gets the same records again and pays nothing", async () => {
    const folder = servers.folder();
    const { client } = await paying(folder, sandbox.url);
    const first = structured(
      await client.callTool({ name: "directory", arguments: { chain: "base", limit: 150, fields: ["id"] } }),
    );
    const before = sandbox.stats.payments.accepted;
    const args = { chain: "base", limit: 100, fields: ["id"], cursor: first.next_cursor };
    const once = structured(await client.callTool({ name: "directory", arguments: args }));
    const again = structured(await client.callTool({ name: "directory", arguments: args }));
    expect(again.records).toEqual(once.records);
    expect(again.next_cursor).toBe(once.next_cursor);
    // Page 2 was paid for by the first call; page 3 once, by the first continuation.
    expect(sandbox.stats.payments.accepted - before).toBe(1);
    // An older cursor than that is refused, before any request.
    const stale = (await client.callTool({
      name: "directory",
      arguments: { ...args, cursor: first.next_cursor!.replace(/\.150\./, ".0.") },
    })) as CallToolResult;
    expect(stale.isError).toBe(true);
    expect(sandbox.stats.payments.accepted - before).toBe(1);
  });
});

describe("tokenintel mcp: cursors the server made", () => {
  it("a made-up, altered or foreign cursor is refused before any request", async () => {
    const { client } = await connect(servers.folder(), ["--base-url", sandbox.url, "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const args = { chain: "base", tickers: ["AERO", "DEGEN"], fields: ["id"] };
    const real = structured(await client.callTool({ name: "market", arguments: { ...args, limit: 1 } }));
    expect(real.next_cursor).toMatch(/^[\w-]{22}\.1\.[\w-]{22}$/);
    const [id, , mac] = real.next_cursor!.split(".");
    const before = sandbox.stats.requests;
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(JSON.stringify(args)).digest("base64url");
    for (const cursor of [
      Buffer.from(`7:0::${hash}`).toString("base64url"), // the old form: a hash of public arguments
      `${id}.7.${mac}`, // a position past the list, with the real walk and signature
      `${id}.1.${"A".repeat(22)}`,
      `${"B".repeat(22)}.1.${mac}`,
      "x".repeat(400),
    ]) {
      const r = (await client.callTool({
        name: "market",
        arguments: { ...args, limit: 1, cursor },
      })) as CallToolResult;
      expect(r.isError, cursor).toBe(true);
      expect((r.content[0] as { text: string }).text).toMatch(/^cursor: /);
    }
    expect(sandbox.stats.requests - before).toBe(0);
    // The real one still continues, with the ticker filter kept.
    const next = structured(
      await client.callTool({ name: "market", arguments: { ...args, limit: 5, cursor: real.next_cursor } }),
    );
    expect(next.count).toBe(1);
    expect(next.more).toBe(false);
  });
});

describe("tokenintel mcp: a cancel signs nothing more", () => {
  it("a paid ask cancelled while its first request is out is never paid", async () => {
    const slow = await servers.sandbox({ latencyMs: 400 });
    const folder = servers.folder();
    const { client } = await paying(folder, slow.url);
    const controller = new AbortController();
    const call = client
      .callTool({ name: "ask", arguments: { question: "how is $AERO?" } }, undefined, {
        signal: controller.signal,
      })
      .catch((e: Error) => e);
    await until(() => (slow.stats.byPath["/v1/ask-loky"] ?? 0) >= 1);
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(slow.stats.payments.accepted).toBe(0);
    expect(slow.stats.byPath["/v1/ask-loky"]).toBe(1);
    expect(signedLines(folder)).toHaveLength(0);
  });

  it("a paid call cancelled while it waits its turn never starts", async () => {
    const slow = await servers.sandbox({ latencyMs: 300 });
    const folder = servers.folder();
    const { client } = await paying(folder, slow.url);
    const running = client.callTool({ name: "directory", arguments: { chain: "base", limit: 1 } });
    await until(() => slow.stats.requests >= 1);
    const controller = new AbortController();
    const waiting = client
      .callTool({ name: "ask", arguments: { question: "how is $AERO?" } }, undefined, {
        signal: controller.signal,
      })
      .catch((e: Error) => e);
    controller.abort();
    expect(await waiting).toBeInstanceOf(Error);
    structured(await running);
    await new Promise((r) => setTimeout(r, 500));
    expect(slow.stats.byPath["/v1/ask-loky"]).toBeUndefined();
    expect(signedLines(folder).map((l) => l.path ?? l.url)).toHaveLength(1);
  });

  it("a walk cancelled mid-page keeps what it paid for: the continuation pays only what is new", async () => {
    const slow = await servers.sandbox({ latencyMs: 600 });
    const folder = servers.folder();
    const { client } = await paying(folder, slow.url);
    const first = structured(
      await client.callTool({ name: "directory", arguments: { chain: "base", limit: 100, fields: ["id"] } }),
    );
    const controller = new AbortController();
    const args = { chain: "base", limit: 100, fields: ["id"], cursor: first.next_cursor };
    const cancelled = client
      .callTool({ name: "directory", arguments: args }, undefined, { signal: controller.signal })
      .catch((e: Error) => e);
    // Cancelled once page 2's paid request is out (its 402 and the paid one: requests 3 and 4), while
    // the server takes its time: the page comes in after the cancel and is kept for the cursor.
    await until(() => slow.stats.requests >= 4);
    controller.abort();
    expect(await cancelled).toBeInstanceOf(Error);
    await new Promise((r) => setTimeout(r, 800));
    const again = structured(await client.callTool({ name: "directory", arguments: args }));
    expect(again.count).toBe(100);
    expect(again.records[0]!.id).not.toBe(first.records[99]!.id);
    expect(slow.stats.payments.accepted).toBe(2);
    expect(signedLines(folder)).toHaveLength(2);
  });
});
