import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { scaled } from "../../../src/commands/perp/columns.js";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// perp against servers that answer otherwise than the sandbox: numbers no double holds and fields
// no docs name (kept, digit for digit), no market (null data, a 404), a record of the wrong form,
// a watch whose figures move on one venue; and --pay, whose cost (tickers × venues) is known
// before the first request and checked against --max-spend before anything is signed.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_hostile`;
const WALLET = generatePrivateKey();
const servers = useServers();
neverShown(KEY, WALLET.slice(2));

const cli = (base: string, args: string[], env: Record<string, string> = { TOKENINTEL_API_KEY: KEY }) =>
  run(["--base-url", base, "perp", ...args], servers.folder(), { env });
const paramOf = (url: string, name: string) => new URL(url, "http://x").searchParams.get(name);

const EXACT =
  '{"success":true,"data":{"symbol":"ETH/USDC:USDC","base":"ETH","quote":"USDC","mark_price":123456789012345678901234.5,"funding_rate":{"current_value":0.00001300000000000000000001,"trajectory":[1e-30,2.50]},"vwap":{"1h":{"value":4248.10000000000000000001,"distance_bps":-3}},"ema_distance":[0.1,0.20000000000000000001],"bollinger":{"upper_4h":4300.00000000000000000001}}}';

describe("perp against other servers", () => {
  it("JSON and NDJSON carry every field as sent, digit for digit, unknown nested fields included", async () => {
    const server = await servers.stub((_req, res) => sendJson(res, EXACT));
    const json = await cli(server.url, ["--tickers", "ETH", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('"mark_price": 123456789012345678901234.5');
    expect(json.stdout).toContain('"current_value": 0.00001300000000000000000001');
    expect(json.stdout).toContain('"value": 4248.10000000000000000001');
    expect(json.stdout).toContain('"distance_bps": -3');
    expect(json.stdout).toContain("0.20000000000000000001");
    const nd = await cli(server.url, ["--tickers", "ETH", "--dex", "hyperliquid,lighter", "--ndjson"]);
    expect(nd.code, nd.stderr).toBe(0);
    const [first, second] = nd.stdout.trim().split("\n");
    // The service's record after the one field tokenintel adds, the venue asked.
    expect(first).toBe(`{"dex":"hyperliquid",${EXACT.slice(EXACT.indexOf('"symbol"'), -1)}`);
    expect(second).toBe(`{"dex":"lighter",${EXACT.slice(EXACT.indexOf('"symbol"'), -1)}`);
    // --where and --sort read such a field by its digits.
    for (const [cond, kept] of [
      ["bollinger.upper_4h>4300", 1],
      ["bollinger.upper_4h>4300.00000000000000000001", 0],
    ] as const) {
      const where = await cli(server.url, ["--tickers", "ETH", "--where", cond, "--json"]);
      expect(where.code, where.stderr).toBe(0);
      expect(JSON.parse(where.stdout), cond).toHaveLength(kept);
    }
  });

  it("no market (null data, or a 404 for the ticker) is named, the rest printed; a 404 for the path fails", async () => {
    const server = await servers.stub((req, res) => {
      const ticker = paramOf(req.url ?? "/", "token_ticker");
      if (ticker === "NULL") return sendJson(res, { success: true, data: null });
      if (ticker === "GONE") return sendJson(res, { success: false, message: "token not found" }, 404);
      sendJson(res, { success: true, data: { symbol: `${ticker}/USDC:USDC`, base: ticker, mark_price: 1 } });
    });
    const r = await cli(server.url, ["--tickers", "ETH,NULL,GONE", "--dex", "hyperliquid,aster", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ dex: string }>).map((x) => x.dex)).toEqual([
      "hyperliquid",
      "aster",
    ]);
    expect(r.stderr.trim()).toBe("tokenintel: warning: no data for 2 of 3 tickers: NULL, GONE");
    const routeless = await servers.stub((_req, res) =>
      sendJson(res, { success: false, message: "no route for GET /v1/perp-intelligence" }, 404),
    );
    const failed = await cli(routeless.url, ["--tickers", "ETH", "--dex", "nado"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/HTTP 404: no route/);
  });

  it("sends what the docs name, each request one ticker and one venue: no chain, though one is set", async () => {
    // A dex of the service's own is replaced by the venue asked: the one field tokenintel adds.
    const server = await servers.stub((req, res) =>
      sendJson(res, { success: true, data: { base: paramOf(req.url ?? "/", "token_ticker"), dex: "?" } }),
    );
    const r = await cli(server.url, ["--tickers", "ETH,BTC", "--dex", "hyperliquid,grvt", "--json"], {
      TOKENINTEL_API_KEY: KEY,
      TOKENINTEL_CHAIN: "base",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { dex: "hyperliquid", base: "ETH" },
      { dex: "grvt", base: "ETH" },
      { dex: "hyperliquid", base: "BTC" },
      { dex: "grvt", base: "BTC" },
    ]);
    const asked = server.requests.map((q) => {
      const url = new URL(q.url, "http://x");
      url.searchParams.delete("api_key");
      return `${url.pathname}?${url.searchParams}`;
    });
    expect(asked.sort()).toEqual(
      [
        "/v1/hl-perp-trade?token_ticker=ETH&dex=hyperliquid",
        "/v1/perp-intelligence?token_ticker=ETH&dex=grvt",
        "/v1/hl-perp-trade?token_ticker=BTC&dex=hyperliquid",
        "/v1/perp-intelligence?token_ticker=BTC&dex=grvt",
      ].sort(),
    );
  });

  it("a rate of millions of digits: the board multiplies 64 of them, and the venue asked overwrites the server's dex", async () => {
    const long = `0.0000${"7".repeat(2_000_000)}`;
    // Exactly, to the places shown, from no more digits than a rate has (all of them took seconds a cell).
    expect(scaled(long, 100n)).toBe(`0.00${"7".repeat(60)}`);
    expect(scaled(`1${"0".repeat(80)}`, 100n)).toBeUndefined();
    const body = `{"success":true,"data":{"symbol":"ETH/USDC:USDC","base":"ETH","mark_price":4000,"funding_rate":{"current_value":${long}},"dex":"evil\\u001b[31m"}}`;
    const server = await servers.stub((_req, res) => sendJson(res, body));
    const table = await run(
      ["--base-url", server.url, "perp", "--tickers", "ETH", "-o", "table"],
      servers.folder(),
      {
        env: { TOKENINTEL_API_KEY: KEY, COLUMNS: "160" },
      },
    );
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ETH +4,000\.00 +- +\+0\.0078% +\+68\.13% /m);
    const json = await cli(server.url, ["--tickers", "ETH", "--json"]);
    expect(JSON.parse(json.stdout)[0].dex).toBe("hyperliquid");
  });

  it("a record whose section is not an object fails the run, naming it", async () => {
    const server = await servers.stub((_req, res) =>
      sendJson(res, { success: true, data: { symbol: "ETH", funding_rate: "high" } }),
    );
    const r = await cli(server.url, ["--tickers", "ETH", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/unexpected response \(data\[0\]\.funding_rate: /);
  });

  it("--watch --diff into a pipe: each change names the venue it came from", async () => {
    const moving = await servers.stub((req, res, _seen, index) => {
      const dex = paramOf(req.url ?? "/", "dex");
      // Lighter's funding moves on the second refresh; Hyperliquid's stays.
      const funding = dex === "lighter" && index >= 2 ? "0.00002000000000000000001" : "0.0000125";
      sendJson(
        res,
        `{"success":true,"data":{"symbol":"ETH/USDC:USDC","base":"ETH","funding_rate":{"current_value":${funding}}}}`,
      );
    });
    const r = await cli(moving.url, [
      "--tickers",
      "ETH",
      "--dex",
      "hyperliquid,lighter",
      "--watch",
      "1s",
      "--count",
      "2",
      "--diff",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const changes = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(changes.map(({ at: _, ...rest }) => rest)).toEqual([
      {
        id: null,
        symbol: "ETH/USDC:USDC",
        dex: "lighter",
        field: "funding_rate.current_value",
        from: 0.0000125,
        to: 0.00002,
      },
    ]);
    expect(r.stdout).toContain('"to":0.00002000000000000000001');
  });
});

describe("perp --pay: the cost is known before the first request", () => {
  it("tickers × venues over --max-spend is refused before any payment is signed; within it, each is paid once", async () => {
    const s = await servers.sandbox();
    const env = { TOKENINTEL_WALLET_KEY: WALLET, TOKENINTEL_API_KEY: "" };
    const folder = servers.folder();
    const over = await run(
      ["--base-url", s.url, "perp", "--tickers", "ETH,BTC", "--dex", "all", "--pay", "--max-spend", "0.05"],
      folder,
      { env },
    );
    expect(over.code).toBe(5);
    expect(over.stdout).toBe("");
    expect(over.stderr.trim()).toBe(
      "tokenintel: refusing to pay: this command needs 20 paid requests of 0.005 USDC: 0.1 USDC, over --max-spend 0.05; nothing was paid",
    );
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
    const ledger = await run(["payments", "--json"], folder, { env });
    expect(JSON.parse(ledger.stdout)).toEqual([]);
    const within = await run(
      [
        "--base-url",
        s.url,
        "perp",
        "--tickers",
        "ETH,BTC",
        "--dex",
        "all",
        "--pay",
        "--max-spend",
        "0.1",
        "--json",
      ],
      folder,
      { env },
    );
    expect(within.code, within.stderr).toBe(0);
    expect(JSON.parse(within.stdout)).toHaveLength(20);
    expect(s.stats.payments).toEqual({ accepted: 20, refused: 0 });
    expect(within.stderr).toMatch(/paid 20 requests, 0\.1 USDC/);
  });

  it("--dry-run says what tickers × venues would cost", async () => {
    const s = await servers.sandbox();
    const r = await run(
      [
        "--base-url",
        s.url,
        "perp",
        "--tickers",
        "ETH,SOL,BTC",
        "--dex",
        "hyperliquid,lighter",
        "--pay",
        "--dry-run",
      ],
      servers.folder(),
      { env: { TOKENINTEL_WALLET_KEY: WALLET, TOKENINTEL_API_KEY: "" } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/6 requests, 0\.03 USDC in total/);
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
  });
});
