import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../../src/contract/endpoints.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// perp's table: the board (mark, 24h, funding and its year, open interest, spread, depth,
// imbalance), signed and coloured as the other tables; funding annualised only where the venue's
// interval is known; a cross-venue board that fits a 100-column terminal; technicals and --wide.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_board`;
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const cli = (args: string[], env: Record<string, string> = {}, base = sandbox.url) =>
  run(["--base-url", base, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, ...env } });
const lines = (text: string) => text.replace(/\n$/, "").split("\n");
const plain = (text: string) => text.replace(/\u001b\[\d+m/g, "");
const TTY100 = { TOKENINTEL_FORCE_TTY: "1", COLUMNS: "100", NO_COLOR: "1" };

/** The docs' sample figures, on two venues: Hyperliquid settles hourly, nado's interval is unknown. */
function sample(dex: string): string {
  const funding = dex === "hyperliquid" ? "0.000013" : "-0.0000125";
  return `{"success":true,"data":{"symbol":"ETH/USDC:USDC","base":"ETH","quote":"USDC","mark_price":4248,"mid_price":4248.1,"price_change_24h":-64.7,"price_change_percent_24h":-1.5,"bid_ask_spread":0.1,"bid_ask_spread_percentage_mark":0.002354,"bid_liquidity_0_25_percentage":5686000,"ask_liquidity_0_25_percentage":6659678,"total_liquidity_0_25_percentage":12345678,"order_book_imbalance_percentage":-0.079192,"open_interest":{"usd_value":1234567890,"change_percentage_1h":0.1,"change_percentage_6h":-0.2,"change_percentage_24h":3.5},"funding_rate":{"current_value":${funding},"next":0.0000125,"trajectory":[0.00001,0.000011,0.000012,0.000013]}}}`;
}

describe("perp: the board", () => {
  it("reads like a perp screen: funding per interval and a year where the interval is known, signs coloured", async () => {
    const server = await servers.stub((req, res) => {
      const dex = new URL(req.url ?? "/", "http://x").searchParams.get("dex") ?? "hyperliquid";
      sendJson(res, sample(dex));
    });
    const r = await cli(
      ["--color", "always", "perp", "--tickers", "ETH", "--dex", "hyperliquid,nado", "-o", "table"],
      {},
      server.url,
    );
    expect(r.code, r.stderr).toBe(0);
    const [head, hyperliquid, nado] = lines(r.stdout).map(plain);
    expect(head).toMatch(
      /^TICKER\s+DEX\s+MARK\s+24H\s+FUNDING\s+APR\s+OI\s+OI 24H\s+SPREAD\s+±0\.25%\s+IMBAL$/,
    );
    // 0.000013 an hour × 8,760 hours = 11.388 %; nado's interval is not known: n/a.
    expect(hyperliquid).toMatch(
      /^ETH\s+hyperliquid\s+4,248\.00\s+-1\.50%\s+\+0\.0013%\s+\+11\.39%\s+\$1\.23B\s+\+3\.50%\s+0\.0024%\s+\$12\.35M\s+-7\.92%$/,
    );
    expect(nado).toMatch(/^ETH\s+nado\s+4,248\.00\s+-1\.50%\s+-0\.0013%\s+n\/a\s+\$1\.23B/);
    expect(r.stdout).toMatch(/\u001b\[32m *\+11\.39%\u001b\[39m/);
    expect(r.stdout).toMatch(/\u001b\[31m *-0\.0013%\u001b\[39m/);
    expect(r.stdout).toMatch(/\u001b\[31m *-7\.92%\u001b\[39m/);
    // One venue: its rows need no DEX column.
    const one = await cli(["perp", "--tickers", "ETH", "-o", "table"], {}, server.url);
    expect(lines(one.stdout)[0]).toMatch(/^TICKER\s+MARK\s+24H\s+FUNDING\s+APR\s+/);
  });

  it("--dex all on a 100-column terminal is one board: every column, no line over 100", async () => {
    for (const view of ["board", "technicals"]) {
      const r = await cli(["perp", "--tickers", "ETH,BTC", "--dex", "all", "--view", view], TTY100);
      expect(r.code, r.stderr).toBe(0);
      const out = lines(r.stdout);
      expect(out).toHaveLength(1 + 2 * ENDPOINTS.perp.fanOut.values.length);
      for (const line of out) expect(line.length, line).toBeLessThanOrEqual(100);
      // Nothing was left out to fit, and no venue was cut.
      expect(r.stderr).not.toMatch(/did not fit/);
      for (const venue of ENDPOINTS.perp.fanOut.values) expect(r.stdout).toContain(` ${venue} `);
      if (view === "board") expect(out[0]).toMatch(/MARK.*FUNDING.*APR.*OI 24H.*SPREAD.*±0\.25%.*IMBAL$/);
      else expect(out[0]).toMatch(/RSI 15M.*ATR 1H.*ADX 1H.*OBV 1D.*SWING HI.*SWING LO.*MACD 15M$/);
    }
  });

  it("--wide adds mid, next funding, open interest over 1h and 6h, both sides of the book and the symbol", async () => {
    const r = await cli(["perp", "--tickers", "ETH", "--wide"], { ...TTY100, COLUMNS: "250" });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)[0]).toMatch(
      /IMBAL\s+MID\s+24H Δ\s+NEXT\s+OI 1H\s+OI 6H\s+BID ±0\.25%\s+ASK ±0\.25%\s+SYMBOL$/,
    );
    expect(lines(r.stdout)[1]).toMatch(/ETH\/USDC:USDC$/);
  });
});
