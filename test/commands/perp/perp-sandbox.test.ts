import { describe, expect, it } from "vitest";
import { describeIssue, recordSchemaFor } from "../../../src/api/schemas.js";
import { ENDPOINTS } from "../../../src/contract/endpoints.js";
import { useSandbox, useServers } from "../../e2e/fixtures.js";

// The sandbox's perp intelligence, asked over HTTP as the live service is: every venue at the newer
// path, Hyperliquid's alone at the older; not every market on every venue; records of the
// documented shape whose figures hold together as an order book's do, the same every run.

const sandbox = useSandbox({ apiKey: "k" });
const servers = useServers();
const { path: OLDER, newerPath: NEWER, fanOut } = ENDPOINTS.perp;
const TICKERS = [
  "BTC",
  "ETH",
  "SOL",
  "HYPE",
  "DOGE",
  "LINK",
  "FARTCOIN",
  "kPEPE",
  "TSLA",
  "NVDA",
  "XAU",
  "XAG",
];

async function get(path: string, query: Record<string, string>, base = sandbox.url) {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries({ api_key: "k", ...query })) url.searchParams.set(k, v);
  const res = await fetch(url);
  return {
    status: res.status,
    body: (await res.json()) as { success: boolean; data: Record<string, never> },
  };
}

interface Market {
  base: string;
  mark_price: number;
  mid_price: number;
  bid_ask_spread: number;
  bid_ask_spread_percentage_mark: number;
  bid_liquidity_0_25_percentage: number;
  ask_liquidity_0_25_percentage: number;
  total_liquidity_0_25_percentage: number;
  order_book_imbalance_percentage: number;
  funding_rate: { current_value: number };
}

describe("the sandbox's perp intelligence", () => {
  it("serves every venue at the newer path, each a market of the documented shape that holds together", async () => {
    const listed = new Map<string, number>();
    for (const dex of fanOut.values)
      for (const ticker of TICKERS) {
        const r = await get(NEWER, { dex, token_ticker: ticker.toLowerCase() });
        if (r.status === 404) continue;
        expect(r.status, `${dex} ${ticker}`).toBe(200);
        listed.set(dex, (listed.get(dex) ?? 0) + 1);
        const d = r.body.data as Record<string, unknown>;
        const strict = recordSchemaFor("perp", "strict").safeParse(d);
        expect(strict.success, `${dex} ${ticker}: ${strict.success ? "" : describeIssue(strict.error)}`).toBe(
          true,
        );
        const n = d as unknown as Market;
        expect(d.base).toBe(ticker);
        expect(Math.abs(n.mark_price / n.mid_price - 1)).toBeLessThan(0.001);
        expect(n.bid_liquidity_0_25_percentage).toBeGreaterThan(0);
        expect(n.ask_liquidity_0_25_percentage).toBeGreaterThan(0);
        const [bid, ask] = [n.bid_liquidity_0_25_percentage, n.ask_liquidity_0_25_percentage];
        expect(n.total_liquidity_0_25_percentage).toBeCloseTo(bid + ask, 1);
        expect(n.order_book_imbalance_percentage).toBeCloseTo((bid - ask) / (bid + ask), 6);
        expect(Math.abs(n.funding_rate.current_value)).toBeLessThan(0.001);
        expect(n.bid_ask_spread_percentage_mark).toBeCloseTo((n.bid_ask_spread / n.mid_price) * 100, 4);
      }
    // Every venue lists the majors; most do not list every market.
    for (const dex of fanOut.values) expect(listed.get(dex), dex).toBeGreaterThanOrEqual(6);
    expect(fanOut.values.filter((dex) => listed.get(dex)! < TICKERS.length).length).toBeGreaterThan(5);
    // Some list equities, some do not list the small coins.
    expect((await get(NEWER, { dex: "lighter", token_ticker: "TSLA" })).status).toBe(200);
    expect((await get(NEWER, { dex: "hyperliquid", token_ticker: "TSLA" })).status).toBe(404);
    expect((await get(NEWER, { dex: "nado", token_ticker: "FARTCOIN" })).status).toBe(404);
  });

  it("the older path is Hyperliquid's alone, and answers as the newer does for it", async () => {
    const older = await get(OLDER, { token_ticker: "ETH" });
    expect(older.status).toBe(200);
    expect(await get(`${OLDER}/`, { token_ticker: "ETH", dex: "hyperliquid" })).toEqual(older);
    expect(await get(NEWER, { token_ticker: "ETH", dex: "hyperliquid" })).toEqual(older);
    expect((await get(OLDER, { token_ticker: "ETH", dex: "lighter" })).status).toBe(400);
  });

  it("refuses what the docs do not allow: no dex on the newer path, another dex, no ticker, a list", async () => {
    const queries: Array<Record<string, string>> = [
      { token_ticker: "ETH" },
      { token_ticker: "ETH", dex: "binance" },
      { dex: "lighter" },
      { dex: "lighter", token_ticker: "ETH,BTC" },
    ];
    for (const query of queries) {
      const r = await get(NEWER, query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.success).toBe(false);
    }
  });

  it("is the same every run (its seed), and asks a payment of a request without a key", async () => {
    const other = await servers.sandbox({ apiKey: "k" });
    expect(await get(NEWER, { dex: "grvt", token_ticker: "XAU" }, other.url)).toEqual(
      await get(NEWER, { dex: "grvt", token_ticker: "XAU" }),
    );
    const unpaid = await fetch(new URL(`${NEWER}?dex=grvt&token_ticker=XAU`, sandbox.url));
    expect(unpaid.status).toBe(402);
  });
});
