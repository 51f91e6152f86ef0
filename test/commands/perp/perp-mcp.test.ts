import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../../src/contract/endpoints.js";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { useMcp } from "../mcp-client.js";

// The MCP tool perp, derived from its registry entry's MCP part: its schema (dex an enum of the ten
// venues and all), compact records that say their venue, what no venue answered, and a walk over
// tickers × venues that a cursor resumes without asking a venue twice.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_perpmcp`;
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
const connect = useMcp(() => [KEY]);
const keyed = () =>
  connect(servers.folder(), ["--base-url", sandbox.url, "mcp"], { TOKENINTEL_API_KEY: KEY });
const VENUES = ENDPOINTS.perp.fanOut.values;

interface Answer {
  records: Array<Record<string, unknown>>;
  count: number;
  more: boolean;
  next_cursor?: string;
  missing?: string[];
}

function structured(result: unknown): Answer {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as unknown as Answer;
}
const errorText = (result: unknown) => {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  return (r.content[0] as { text: string }).text;
};
const requests = () =>
  (sandbox.stats.byPath[ENDPOINTS.perp.path] ?? 0) + (sandbox.stats.byPath[ENDPOINTS.perp.newerPath] ?? 0);

describe("tokenintel mcp: the perp tool", () => {
  it("is listed from the registry: tickers required, dex an enum of the venues and all", async () => {
    const { client } = await keyed();
    const tool = (await client.listTools()).tools.find((t) => t.name === "perp")!;
    expect(tool.title).toBe("Perp markets");
    const props = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.dex).toMatchObject({ type: "array", items: { type: "string", enum: [...VENUES, "all"] } });
    expect(tool.inputSchema.anyOf).toEqual([{ required: ["tickers"] }]);
    expect(props.chain).toBeUndefined();
  });

  it("answers compact records that say their venue, and names what no venue answered", async () => {
    const { client } = await keyed();
    const before = requests();
    const all = structured(
      await client.callTool({
        name: "perp",
        arguments: { tickers: ["ETH", "NOPE"], dex: ["all"], limit: 50 },
      }),
    );
    expect(requests() - before).toBe(20);
    expect(all.records.map((r) => r.dex)).toEqual([...VENUES]);
    // The registry's compact fields: who, where, and the board's figures.
    expect(Object.keys(all.records[0]!).sort()).toEqual(
      [...new Set(ENDPOINTS.perp.mcp.compact.map((p) => p.split(".")[0]!))].sort(),
    );
    expect(all.missing).toEqual(["NOPE"]);
    const some = structured(
      await client.callTool({
        name: "perp",
        arguments: { tickers: ["TSLA"], dex: ["hyperliquid", "lighter"] },
      }),
    );
    expect(some.records.map((r) => r.dex)).toEqual(["lighter"]);
    expect(some.missing).toEqual(["TSLA on hyperliquid"]);
    const strict = { tickers: ["TSLA"], dex: ["hyperliquid", "lighter"], strict: true };
    expect(errorText(await client.callTool({ name: "perp", arguments: strict }))).toBe(
      "no data for 1 of 1 tickers: TSLA on hyperliquid (strict)",
    );
    expect(
      errorText(await client.callTool({ name: "perp", arguments: { tickers: ["ETH"], dex: ["binance"] } })),
    ).toMatch(/dex: expected items among hyperliquid, .*, all, got "binance"$/);
  });

  it("a cursor goes on from the venue after the last answered: every venue asked once", async () => {
    const { client } = await keyed();
    const before = requests();
    const got: string[] = [];
    let cursor: string | undefined;
    for (let calls = 0; calls < 10; calls++) {
      const page = structured(
        await client.callTool({
          name: "perp",
          arguments: { tickers: ["BTC", "ETH"], dex: ["all"], limit: 7, ...(cursor ? { cursor } : {}) },
        }),
      );
      got.push(...page.records.map((r) => `${r.base}@${r.dex}`));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    expect(got).toEqual(["BTC", "ETH"].flatMap((t) => VENUES.map((v) => `${t}@${v}`)));
    expect(requests() - before).toBe(20);
  });

  it("a request that fails mid-walk: the answer keeps what was read, its cursor asks again from that venue on", async () => {
    let failed = false;
    const asked: string[] = [];
    const flaky = await servers.stub((req, res) => {
      const dex = new URL(req.url ?? "/", "http://x").searchParams.get("dex")!;
      if (dex === "pacifica" && !failed) {
        failed = true;
        return sendJson(res, { success: false, message: "upstream timeout" }, 500);
      }
      asked.push(dex);
      sendJson(res, { success: true, data: { base: "ETH", mark_price: 1 } });
    });
    const { client } = await connect(servers.folder(), ["--base-url", flaky.url, "--retries", "0", "mcp"], {
      TOKENINTEL_API_KEY: KEY,
    });
    const args = { tickers: ["ETH"], dex: ["all"], limit: 50 };
    const first = structured(await client.callTool({ name: "perp", arguments: args }));
    expect(first.records.map((r) => r.dex)).toEqual(VENUES.slice(0, 3));
    expect(first.next_cursor).toBeDefined();
    const rest = structured(
      await client.callTool({ name: "perp", arguments: { ...args, cursor: first.next_cursor } }),
    );
    expect(rest.records.map((r) => r.dex)).toEqual(VENUES.slice(3));
    expect(rest.missing).toBeUndefined();
    // Each venue answered once: the one that failed was asked again, none before it.
    expect(asked).toEqual([...VENUES]);
  });
});
