import { beforeAll, describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import type { HostileServer } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// `tokenintel trending` run in-process through run() against the sandbox (documented shape: the
// symbol and figures at the top level), and against a server that sends another plausible shape.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_trend`;
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const cli = (args: string[], env: Record<string, string> = {}, base = sandbox.url) =>
  run(["--base-url", base, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, ...env } });

type Trend = Record<string, string | number>;

describe("trending", () => {
  it("walks every page in rank order, and its figures are the token's market figures", async () => {
    const before = sandbox.stats.byPath["/v1/trending"] ?? 0;
    const r = await cli(["trending", "-c", "base", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Trend[];
    expect(records).toHaveLength(200);
    expect(records.map((x) => x.rank)).toEqual(records.map((_, i) => i + 1));
    expect((sandbox.stats.byPath["/v1/trending"] ?? 0) - before).toBe(10); // 20 a page
    const tokens = sandbox.data.list("base", undefined);
    for (const rec of records.slice(0, 40)) {
      const token = tokens.find((t) => t.id === rec.token_id)!;
      const m = sandbox.data.marketRecord(token).token_metrics as Record<string, string>;
      expect(rec.token_symbol).toBe(token.symbol);
      expect([rec.usd_price, rec.volume, rec.liquidity, rec.mcap]).toEqual([
        m.usd_price,
        m.volume_24h,
        m.total_liquidity,
        m.mcap,
      ]);
    }
  });

  it("a table reads the top-level symbol and figures; --wide adds chain, address and id", async () => {
    // Ranked by market cap, as the service ranks by default: the largest first.
    const first = sandbox.data
      .list("base", undefined)
      .reduce((a, b) => (sandbox.data.mcapOf(b) > sandbox.data.mcapOf(a) ? b : a));
    const r = await cli(["trending", "-c", "base", "--limit", "3", "-o", "table"], { COLUMNS: "120" });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^#\s+SYMBOL\s+NAME\s+PRICE\s+24H\s+VOL 24H\s+LIQ\s+MCAP$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(`^1\\s+${first.symbol}\\s+${first.name}\\s+\\S+\\s+[+-]\\d+\\.\\d\\d%\\s+\\$`),
    );
    const wide = await cli(["trending", "-c", "base", "--limit", "1", "-o", "table", "--wide"], {
      COLUMNS: "200",
    });
    expect(wide.stdout).toMatch(/CHAIN\s+ADDRESS\s+ID/);
    expect(wide.stdout).toContain(first.address);
    expect(wide.stdout).toContain(first.id);
  });

  it("--where and --sort work on its top-level fields, exactly", async () => {
    const r = await cli([
      "trending",
      "-c",
      "base",
      "--where",
      "liquidity>100000",
      "--sort",
      "volume:desc",
      "--limit",
      "5",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Trend[];
    expect(records).toHaveLength(5);
    const volumes = records.map((x) => Number(x.volume));
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    for (const x of records) expect(Number(x.liquidity)).toBeGreaterThan(100000);
    // The top 5 by volume among all 200, not among the first pages.
    const all = JSON.parse((await cli(["trending", "-c", "base", "--json"])).stdout) as Trend[];
    const top = all
      .filter((x) => Number(x.liquidity) > 100000)
      .sort((a, b) => Number(b.volume) - Number(a.volume))
      .slice(0, 5);
    expect(records.map((x) => x.token_id)).toEqual(top.map((x) => x.token_id));
  });

  it("--watch into a pipe streams NDJSON, a refresh at a time", async () => {
    const r = await cli([
      "trending",
      "-c",
      "base",
      "--limit",
      "2",
      "--watch",
      "1s",
      "--count",
      "2",
      "--fields",
      "rank,token_symbol",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Trend);
    expect(lines.map((l) => l.rank)).toEqual([1, 2, 1, 2]);
  });
});

describe("trending against another shape", () => {
  let server: HostileServer;
  beforeAll(async () => {
    // Numbers as JSON numbers, figures nested as market nests them, no rank, `id` not `token_id`,
    // a bare array: each a shape detail that must not stop the records from being shown.
    server = await servers.stub((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify([
          {
            id: "t1",
            token_symbol: "NUMS",
            token_name: "Numbers Inc",
            token_metrics: { usd_price: 1.25, volume_24h: 2500000, total_liquidity: 90000, mcap: 12000000 },
          },
        ]),
      );
    });
  });

  it("shows the record all the same", async () => {
    const r = await cli(["trending", "-o", "table"], { COLUMNS: "120" }, server.url);
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.trimEnd().split("\n")[1]!;
    expect(row).toMatch(/NUMS\s+Numbers Inc\s+1\.25\s+-\s+\$2\.50M\s+\$90\.00K\s+\$12\.00M$/);
  });
});
