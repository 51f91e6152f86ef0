import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../../src/contract/endpoints.js";
import type { SandboxContext } from "../../../src/sandbox/handlers/context.js";
import { marketRecord } from "../../../src/sandbox/handlers/perp.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `tokenintel perp` run in-process through run() against the sandbox: one request per ticker and
// venue, merged in the order given, each record stamped with the venue it came from; the venues'
// paths on both generations; what no venue answered; the board and its width.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_perp`;
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const OLDER = ENDPOINTS.perp.path;
const NEWER = ENDPOINTS.perp.newerPath;
const VENUES = ENDPOINTS.perp.fanOut.values;

const cli = (args: string[], env: Record<string, string> = {}) =>
  run(["--base-url", sandbox.url, "perp", ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, ...env } });

type Rec = Record<string, unknown>;
const records = (stdout: string) => JSON.parse(stdout) as Rec[];
const requestsAt = (path: string) => sandbox.stats.byPath[path] ?? 0;
/** The sandbox's own record of a market on a venue, with the venue stamped first. */
const expected = (venue: (typeof VENUES)[number], ticker: string): Rec => ({
  dex: venue,
  ...marketRecord({ data: sandbox.data } as SandboxContext, venue, ticker),
});

describe("perp: requests and records", () => {
  it("--tickers ETH,BTC: one request each at Hyperliquid's older path, in the order given, each stamped dex", async () => {
    const [older, newer] = [requestsAt(OLDER), requestsAt(NEWER)];
    const r = await cli(["--tickers", "ETH,BTC", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout)).toEqual([expected("hyperliquid", "ETH"), expected("hyperliquid", "BTC")]);
    expect([requestsAt(OLDER) - older, requestsAt(NEWER) - newer]).toEqual([2, 0]);
  });

  it("--dex all: exactly 10 requests per ticker, records grouped by ticker, the venues in order", async () => {
    const [older, newer] = [requestsAt(OLDER), requestsAt(NEWER)];
    const r = await cli(["--tickers", "BTC,ETH", "--dex", "all", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const got = records(r.stdout);
    expect(got.map((x) => `${x.base}@${x.dex}`)).toEqual(
      ["BTC", "ETH"].flatMap((t) => VENUES.map((v) => `${t}@${v}`)),
    );
    expect(got[3]).toEqual(expected("pacifica", "BTC"));
    // Hyperliquid at its older path, the nine others at the newer: 10 requests a ticker.
    expect([requestsAt(OLDER) - older, requestsAt(NEWER) - newer]).toEqual([2, 18]);
  });

  it("venues in the order given, each once; --api-paths newer asks every venue at the newer path", async () => {
    const [older, newer] = [requestsAt(OLDER), requestsAt(NEWER)];
    const r = await cli(
      ["--tickers", "SOL", "--dex", "lighter,HYPERLIQUID", "--dex", "aster,lighter", "--json"],
      { TOKENINTEL_API_PATHS: "newer" },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout).map((x) => x.dex)).toEqual(["lighter", "hyperliquid", "aster"]);
    expect([requestsAt(OLDER) - older, requestsAt(NEWER) - newer]).toEqual([0, 3]);
  });

  it("an unknown ticker is named on stderr and the rest printed, exit 0; with --strict, exit 1", async () => {
    const r = await cli(["--tickers", "ETH,NOPE,BTC", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout).map((x) => x.base)).toEqual(["ETH", "BTC"]);
    expect(r.stderr.trim()).toBe("tokenintel: warning: no data for 1 of 3 tickers: NOPE");
    const strict = await cli(["--tickers", "ETH,NOPE", "--strict", "--json"]);
    expect(strict.code).toBe(1);
    expect(records(strict.stdout).map((x) => x.base)).toEqual(["ETH"]);
    expect(strict.stderr).toContain("no data for 1 of 2 tickers: NOPE (--strict)");
  });

  it("a market some venues do not list: the others printed, the venues without it named", async () => {
    const r = await cli(["--tickers", "TSLA,FARTCOIN", "--dex", "hyperliquid,lighter,avantis", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout).map((x) => `${x.base}@${x.dex}`)).toEqual([
      "TSLA@lighter",
      "TSLA@avantis",
      "FARTCOIN@hyperliquid",
      "FARTCOIN@lighter",
    ]);
    expect(r.stderr.trim()).toBe(
      "tokenintel: warning: no data on every venue asked: TSLA on hyperliquid; FARTCOIN on avantis",
    );
  });

  it("a --dex that is not a venue: exit 2 naming the ten, before any request", async () => {
    const before = sandbox.stats.requests;
    const r = await cli(["--tickers", "ETH", "--dex", "hyperliquid,binance"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      `tokenintel: --dex: unknown venue "binance" (expected ${VENUES.join(", ")}, or all)`,
    );
    expect(sandbox.stats.requests).toBe(before);
  });

  it("completion offers the venues and all for --dex", async () => {
    const r = await run(["completion", "bash"], dir.path);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`--dex) COMPREPLY=( $(compgen -W '${VENUES.join(" ")} all' -- "$cur") )`);
  });

  it("--tickers is required, as the endpoint requires a ticker", async () => {
    const r = await cli(["--dex", "all"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/perp: name the tokens with --tickers/);
  });
});

describe("perp: --where, --sort, --fields, --cache", () => {
  it("--where and --sort read nested fields and the venue; --fields keeps dex and the funding trajectory", async () => {
    const r = await cli([
      "--tickers",
      "ETH",
      "--dex",
      "all",
      "--where",
      "dex!=nado",
      "--where",
      "funding_rate.current_value>0",
      "--sort",
      "open_interest.usd_value:desc",
      "--fields",
      "dex,funding_rate.trajectory,open_interest.usd_value",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    type Market = {
      dex: string;
      funding_rate: Record<string, number>;
      open_interest: Record<string, number>;
    };
    const all = VENUES.map((v) => expected(v, "ETH") as unknown as Market);
    const kept = all
      .filter((x) => x.dex !== "nado" && x.funding_rate.current_value! > 0)
      .sort((a, b) => b.open_interest.usd_value! - a.open_interest.usd_value!);
    expect(kept.length).toBeGreaterThan(1);
    expect(records(r.stdout)).toEqual(
      kept.map((x) => ({
        dex: x.dex,
        funding_rate: { trajectory: x.funding_rate.trajectory },
        open_interest: { usd_value: x.open_interest.usd_value },
      })),
    );
  });

  it("--fields alone lists dex with the record's paths", async () => {
    const r = await cli(["--fields"]);
    expect(r.code, r.stderr).toBe(0);
    const paths = r.stdout.trim().split("\n");
    expect(paths[0]).toBe("dex");
    expect(paths).toEqual(
      expect.arrayContaining(["funding_rate.trajectory", "macd_line_slope.15m.macd_line"]),
    );
  });

  it("--cache: the same run again is answered from the cache, no request", async () => {
    const cache = { TOKENINTEL_CACHE_DIR: `${dir.path}/cache` };
    const first = await cli(["--tickers", "ETH", "--dex", "nado,grvt", "--cache", "10m", "--json"], cache);
    expect(first.code, first.stderr).toBe(0);
    const before = sandbox.stats.requests;
    const again = await cli(["--tickers", "ETH", "--dex", "nado,grvt", "--cache", "10m", "--json"], cache);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(sandbox.stats.requests).toBe(before);
  });
});
