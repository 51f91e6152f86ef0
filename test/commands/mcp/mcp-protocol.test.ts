import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { start } from "../harness.js";
import { frame, opening, useMcp } from "../mcp-client.js";

// `tokenintel mcp` as an agent meets it: a tool list it can afford, arguments refused in its own
// words (never the command line's), strict meaning strict, answers bounded whatever the service
// sends, and a line it cannot read answered as JSON-RPC says.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_protocol`;
const WALLET = generatePrivateKey();
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
const connect = useMcp(() => [KEY, WALLET.slice(2)]);
const keyed = (url = sandbox.url) =>
  connect(servers.folder(), ["--base-url", url, "mcp"], { TOKENINTEL_API_KEY: KEY });

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const isError = (r: unknown) => (r as CallToolResult).isError === true;
const structured = (r: unknown) => {
  expect(isError(r), text(r)).toBe(false);
  return (r as CallToolResult).structuredContent as Record<string, unknown>;
};

/** Every property of a JSON Schema, at any depth, with where it is. */
function properties(schema: Record<string, unknown>, at = ""): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, prop] of Object.entries(props)) {
    out.push([`${at}${name}`, prop], ...properties(prop, `${at}${name}.`));
    const items = prop.items as Record<string, unknown> | undefined;
    if (items) out.push(...properties(items, `${at}${name}[].`));
  }
  return out;
}

describe("tokenintel mcp: a tool list an agent can afford", () => {
  it("names, descriptions and input schemas in 10 KB, the whole list in 20 KB, every output property of one type", async () => {
    const { client } = await keyed();
    const { tools } = await client.listTools();
    const withoutOutput = tools.map(({ outputSchema: _, ...rest }) => rest);
    expect(Buffer.byteLength(JSON.stringify(withoutOutput))).toBeLessThanOrEqual(10 * 1024);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(20 * 1024);
    // One type, or branches of one type each (a type list is dropped by one-type dialects).
    for (const tool of tools)
      for (const [path, prop] of properties(tool.outputSchema as Record<string, unknown>))
        expect(
          typeof prop.type === "string" ||
            (Array.isArray(prop.anyOf) &&
              prop.anyOf.every((branch: { type?: unknown }) => typeof branch.type === "string")),
          `${tool.name}: ${path}: ${JSON.stringify(prop)}`,
        ).toBe(true);
    // Tools that need tokens say so in their schema, as the command refuses without them.
    for (const name of ["smart_money", "staking", "check", "history"]) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.inputSchema.anyOf, name).toEqual(
        expect.arrayContaining([{ required: ["tickers"] }, { required: ["addresses"] }]),
      );
    }
  });
});

describe("tokenintel mcp: arguments in the agent's words", () => {
  it("refuses before any request, naming the argument, never a command-line flag", async () => {
    const listing = await servers.stub((_req, res) => sendJson(res, { success: true, data: [] }));
    const { client } = await keyed(listing.url);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["market", { chain: "base", tickrs: ["A"] }, /unknown argument "tickrs" \(did you mean tickers\?\)/],
      ["market", { chain: "ethereum" }, /chain: expected one of base, solana, got "ethereum"/],
      ["market", {}, /chain is required \(base or solana\)/],
      ["market", { chain: "base", limit: 0 }, /limit: expected a whole number from 1 to 200, got 0/],
      ["staking", {}, /name the tokens with tickers or addresses/],
      ["smart_money", { where: ["symbol=A"] }, /name the tokens with tickers or addresses/],
      ["history", { chain: "base" }, /name the tokens with tickers or addresses or ids/],
      ["market", { chain: "base", where: ["mcap>5"] }, /^where: unknown field "mcap" for market/],
      ["market", { chain: "base", sort: "nope:sideways" }, /^sort: /],
      ["ask", { question: "how is $AERO?", fields: [] }, /^fields: name at least one of questionId, /],
      // Text an agent sends is bounded as a list's item is (a command line's length bounds the CLI's).
      [
        "market",
        { chain: "base", ecosystem: "a".repeat(3_000_000) },
        /^ecosystem: longer than 200 characters/,
      ],
    ];
    for (const [name, args, said] of cases) {
      const r = await client.callTool({ name, arguments: args });
      expect(isError(r), `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r), `${name} ${JSON.stringify(args)}`).toMatch(said);
      expect(text(r)).not.toMatch(/--(where|sort|fields|tickers|addresses|ids|chain|strict|ecosystem)\b/);
      expect(text(r).length, name).toBeLessThan(1000);
    }
    expect(listing.requests).toHaveLength(0);
  });
});

describe("tokenintel mcp: strict means strict", () => {
  it("an item that matches no token fails the call with strict, and is listed in missing without", async () => {
    const { client } = await keyed();
    const args = { chain: "base", tickers: ["AERO", "NO-SUCH-TOKEN"], fields: ["id"] };
    const lenient = structured(await client.callTool({ name: "market", arguments: args }));
    expect(lenient.missing).toEqual(["NO-SUCH-TOKEN"]);
    const strict = await client.callTool({ name: "market", arguments: { ...args, strict: true } });
    expect(isError(strict)).toBe(true);
    expect(text(strict)).toMatch(/^no data for 1 of 2 tickers: NO-SUCH-TOKEN \(strict\)/);
    const history = await client.callTool({
      name: "history",
      arguments: { chain: "base", tickers: ["NO-SUCH-TOKEN"], strict: true },
    });
    expect(isError(history)).toBe(true);
    expect(text(history)).toMatch(/no history for 1 of 1 tokens: NO-SUCH-TOKEN/);
  });
});

describe("tokenintel mcp: answers bounded", () => {
  it("an ask answer with 30,000 token details is cut to 1 MiB, says so, and the session goes on", async () => {
    const detail = (i: number) => ({
      token_ticker: `T${i}`,
      token_ca: `0x${i.toString(16).padStart(40, "0")}`,
      token_name: `Token number ${i}`,
      token_id: `id-${i}`,
      chain: "base",
      current_usd_price: "1.2345",
      market_cap: "1000000",
    });
    const huge = await servers.stub((_req, res) =>
      sendJson(res, {
        success: true,
        data: {
          nlpResponse: "Many tokens.",
          tokenDetails: Array.from({ length: 30_000 }, (_, i) => detail(i)),
        },
      }),
    );
    const { client } = await keyed(huge.url);
    const r = (await client.callTool({
      name: "ask",
      arguments: { question: "all of them?" },
    })) as CallToolResult;
    const answer = structured(r) as { token_details: unknown[]; notes: string[]; answer: { text: string } };
    expect(Buffer.byteLength(text(r))).toBeLessThanOrEqual(1024 * 1024);
    expect(answer.answer.text).toBe("Many tokens.");
    expect(answer.token_details.length).toBeGreaterThan(1000);
    expect(answer.token_details.length).toBeLessThan(30_000);
    expect(answer.notes.join("\n")).toMatch(
      new RegExp(`token_details: ${30_000 - answer.token_details.length} of 30000 items left off`),
    );
    // The connection holds: the next call is answered.
    const again = (await client.callTool({
      name: "ask",
      arguments: { question: "again?" },
    })) as CallToolResult;
    expect(again.isError).toBeFalsy();
  });

  it("a page of records over 1 MiB in all: the answer takes what fits, the cursor the rest", async () => {
    const big = "x".repeat(7_000);
    const page = await servers.stub((req, res) => {
      const n = Number(new URL(req.url ?? "", "http://x").searchParams.get("page") ?? 1);
      sendJson(res, {
        success: true,
        data: Array.from({ length: 100 }, (_, i) => ({ id: `p${n}r${i}`, symbol: `S${i}`, name: big })),
        meta: { pagination: { page: n, pageSize: 100, pageCount: 2, total: 200 } },
      });
    });
    const { client } = await keyed(page.url);
    const args = { chain: "base", limit: 200, fields: ["id", "name"] };
    const first = structured(await client.callTool({ name: "directory", arguments: args })) as {
      records: Array<{ id: string }>;
      next_cursor: string;
      notes: string[];
    };
    expect(first.records.length).toBeLessThan(200);
    expect(first.notes.join("\n")).toMatch(/records left for next_cursor: the answer would pass 1 MiB/);
    const rest = structured(
      await client.callTool({ name: "directory", arguments: { ...args, cursor: first.next_cursor } }),
    ) as { records: Array<{ id: string }> };
    const ids = [...first.records, ...rest.records].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(first.records.length + 1);
    expect(page.requests.length).toBeLessThanOrEqual(2);
  });
});

describe("tokenintel mcp: what the service cannot say", () => {
  it("a full last page with no page count: more is said to be a guess", async () => {
    const { client } = await keyed();
    const answer = structured(
      await client.callTool({ name: "directory", arguments: { chain: "base", limit: 100, fields: ["id"] } }),
    ) as { more: boolean; notes?: string[]; pages: { total: number | null } };
    expect(answer.more).toBe(true);
    expect(answer.pages.total).toBeNull();
    expect(answer.notes?.join("\n")).toMatch(/^more is a guess: the service gives no page count here/m);
  });
});

describe("tokenintel mcp: paying, as the command line pays", () => {
  it("ask with explain pays for its market figures too, even with a stored key", async () => {
    const folder = servers.folder();
    const { client } = await connect(
      folder,
      ["--base-url", sandbox.url, "mcp", "--pay", "--max-spend", "1", "--daily-cap", "5"],
      { TOKENINTEL_API_KEY: KEY, TOKENINTEL_WALLET_KEY: WALLET },
    );
    const before = sandbox.stats.payments.accepted;
    const token = sandbox.data.list("base", undefined)[0]!;
    const answer = structured(
      await client.callTool({
        name: "ask",
        arguments: { question: `how is $${token.symbol}?`, chain: "base", explain: true },
      }),
    ) as { cost: { payments: number }; tokens: unknown[] };
    expect(answer.tokens.length).toBeGreaterThan(0);
    // The answer and the figures behind it: two payments, no key sent for either.
    expect(sandbox.stats.payments.accepted - before).toBe(2);
    expect(answer.cost.payments).toBe(2);
  });
});

describe("tokenintel mcp: lines it cannot read", () => {
  it("answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600, and goes on", async () => {
    const server = start(["--sandbox", "mcp"], servers.folder());
    let out = "";
    server.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    server.stdin.write(opening());
    server.stdin.write("this is not json\n");
    server.stdin.write('{"id": 9, "hello": "world"}\n');
    server.stdin.write(frame({ id: 2, method: "tools/list" }));
    const lines = () =>
      out
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: unknown });
    const deadline = Date.now() + 10_000;
    while (!lines().some((m) => m.id === 2) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    server.stdin.end();
    expect(await server.done).toBe(0);
    const got = lines();
    expect(got.find((m) => m.id === null)?.error?.code).toBe(-32700);
    expect(got.find((m) => m.id === 9)?.error?.code).toBe(-32600);
    expect(got.find((m) => m.id === 2)?.result).toBeDefined();
  });
});
