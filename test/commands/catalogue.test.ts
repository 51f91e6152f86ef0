import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, type EndpointSpec } from "../../src/contract/endpoints.js";
import { neverShown, useSandbox, useServers } from "../e2e/fixtures.js";
import { type HostileServer, sendJson } from "../e2e/hostile-server.js";
import { run } from "./harness.js";

// Issue 35: smart-money, staking and trending --strategy, run in-process through run() against
// the sandbox and against small servers that answer in the documented shapes (live-notes, "The
// provider's newer catalogue"); --pay on each of them, and the pay-to allow-list.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_catalogue`;
const WALLET = `0x${"5a".repeat(32)}`;
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);
neverShown(WALLET.slice(2));

const cli = (args: string[], o: { env?: Record<string, string>; base?: string; dir?: string } = {}) =>
  run(["--base-url", o.base ?? sandbox.url, ...args], o.dir ?? servers.folder(), {
    env: { TOKENINTEL_API_KEY: KEY, COLUMNS: "200", ...o.env },
  });
const paying = (args: string[], base: string, dir = servers.folder()) =>
  run(["--base-url", base, ...args], dir, { env: { TOKENINTEL_WALLET_KEY: WALLET, COLUMNS: "200" } });

type Rec = Record<string, unknown>;
const rows = (stdout: string) => stdout.trimEnd().split("\n");
const ESC = "\u001b";

/** Flows in the documented shape: six numbers a direction, written as the test gives them. */
const flow = (usd24: string, usd7: string, usd30: string, tok = "1") =>
  `{"usd_value_24h":${usd24},"token_24h":${tok},"usd_value_7d":${usd7},"token_7d":${tok},"usd_value_30d":${usd30},"token_30d":${tok}}`;

describe("smart-money", () => {
  it("on the sandbox: the records as served, in the order asked, one request for up to 30", async () => {
    const direct = await fetch(
      `${sandbox.url}/v1/smart-money-trends?api_key=${KEY}&token_tickers=AIXBT,VIRTUAL`,
    );
    const served = (await direct.json()) as { data: Rec[] };
    const before = sandbox.stats.byPath["/v1/smart-money-trends"] ?? 0;
    const r = await cli(["smart-money", "--tickers", "VIRTUAL,AIXBT", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Rec[];
    expect(records.map((x) => x.symbol)).toEqual(["VIRTUAL", "AIXBT"]);
    const byName = Object.fromEntries(served.data.map((x) => [x.symbol, x]));
    expect(records).toEqual([byName.VIRTUAL, byName.AIXBT]);
    expect((sandbox.stats.byPath["/v1/smart-money-trends"] ?? 0) - before).toBe(1);
  });

  it("without --tickers or --addresses: exit 2 before any request", async () => {
    const before = sandbox.stats.requests;
    const r = await cli(["smart-money"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tokenintel: smart-money: name the tokens with --tickers or --addresses\n");
    expect(sandbox.stats.requests).toBe(before);
  });

  describe("against a server in the documented shape", () => {
    let server: HostileServer;
    const seen: string[][] = [];
    beforeAll(async () => {
      // Answers each ticker asked for, in reverse order, with flows whose digits a double would lose.
      server = await servers.stub((req, res) => {
        const url = new URL(req.url ?? "/", "http://x");
        expect(url.pathname).toBe("/v1/smart-money-trends");
        expect(url.searchParams.has("page")).toBe(false);
        expect(url.searchParams.has("chain")).toBe(false);
        const tickers = (url.searchParams.get("token_tickers") ?? "").split(",");
        seen.push(tickers);
        const records = tickers
          .reverse()
          .map((t) =>
            t === "AAA"
              ? `{"symbol":"AAA","token_address":"0xaaa","net_inflow":${flow("1500000.10000000000000000001", "100", "1e21")},"net_outflow":${flow("300000", "250.5", "5")}}`
              : `{"symbol":"${t}","token_address":"0x${t.toLowerCase()}","net_inflow":${flow("10", "20", "30")},"net_outflow":${flow("10", "20", "30")}}`,
          );
        sendJson(res, `{"success":true,"data":[${records.join(",")}]}`);
      });
    });

    it("JSON keeps every digit as sent; NDJSON too", async () => {
      const r = await cli(["smart-money", "--tickers", "AAA", "--json"], { base: server.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('"usd_value_24h": 1500000.10000000000000000001');
      expect(r.stdout).toContain('"usd_value_30d": 1e21');
      const nd = await cli(["smart-money", "--tickers", "AAA", "--ndjson"], { base: server.url });
      expect(nd.stdout).toContain('"usd_value_24h":1500000.10000000000000000001');
    });

    it("the flow board: inflow, outflow and their net per window, signed and coloured", async () => {
      const r = await cli(["--color", "always", "smart-money", "--tickers", "AAA", "-o", "table"], {
        base: server.url,
      });
      expect(r.code, r.stderr).toBe(0);
      const [head, row] = rows(r.stdout).map((l) => l.replace(/\u001b\[\d+m/g, ""));
      expect(head).toMatch(
        /^SYMBOL\s+IN 24H\s+OUT 24H\s+NET 24H\s+IN 7D\s+OUT 7D\s+NET 7D\s+IN 30D\s+OUT 30D\s+NET 30D$/,
      );
      // 1500000.1… − 300000 = +$1.2M; 100 − 250.5 = −$150.5; 1e21 − 5 stays exact.
      expect(row).toMatch(
        /^AAA\s+\$1\.50M\s+\$300\.00K\s+\+\$1\.20M\s+\$100\.00\s+\$250\.50\s+-\$150\.50\s+\S+\s+\$5\.00\s+\+\$\S+$/,
      );
      expect(r.stdout).toMatch(/\u001b\[32m *\+\$1\.20M\u001b\[39m/);
      expect(r.stdout).toMatch(/\u001b\[31m *-\$150\.50\u001b\[39m/);
      const wide = await cli(["smart-money", "--tickers", "AAA", "-o", "table", "--wide"], {
        base: server.url,
      });
      expect(rows(wide.stdout)[0]).toMatch(/TOK IN 24H\s+TOK OUT 24H.*TOK OUT 30D\s+ADDRESS$/);
    });

    it("a list of 31 tickers: two requests of 30 and 1, merged in the order given", async () => {
      seen.length = 0;
      const tickers = Array.from({ length: 31 }, (_, i) => `T${String(i).padStart(2, "0")}`);
      const r = await cli(["smart-money", "--tickers", tickers.join(","), "--json"], { base: server.url });
      expect(r.code, r.stderr).toBe(0);
      expect(seen.map((s) => s.length).sort()).toEqual([1, 30]);
      expect((JSON.parse(r.stdout) as Rec[]).map((x) => x.symbol)).toEqual(tickers);
    });

    it("--where and --sort read the flows, exactly", async () => {
      const r = await cli(
        [
          "smart-money",
          "--tickers",
          "T01,AAA,T02",
          "--where",
          "net_inflow.usd_value_24h>1500000.1",
          "--sort",
          "symbol:desc",
          "--json",
        ],
        { base: server.url },
      );
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Rec[]).map((x) => x.symbol)).toEqual(["AAA"]);
      const sorted = await cli(
        ["smart-money", "--tickers", "T01,AAA,T02", "--sort", "symbol:desc", "--json"],
        {
          base: server.url,
        },
      );
      expect((JSON.parse(sorted.stdout) as Rec[]).map((x) => x.symbol)).toEqual(["T02", "T01", "AAA"]);
    });

    it("--watch --diff into a pipe: one line for the flow that changed, exact", async () => {
      // The second answer: AAA's 24h inflow has grown; nothing else changed.
      const moving = await servers.stub((_req, res, _seen, index) =>
        sendJson(
          res,
          `{"success":true,"data":[{"symbol":"AAA","token_address":"0xaaa","net_inflow":${flow(index === 0 ? "1500000.10000000000000000001" : "2500000", "100", "30")},"net_outflow":${flow("300000", "250.5", "5")}}]}`,
        ),
      );
      const r = await run(
        [
          "--base-url",
          moving.url,
          "smart-money",
          "--tickers",
          "AAA",
          "--watch",
          "1s",
          "--count",
          "2",
          "--diff",
        ],
        servers.folder(),
        { env: { TOKENINTEL_API_KEY: KEY } },
      );
      expect(r.code, r.stderr).toBe(0);
      const lines = rows(r.stdout).map((l) => JSON.parse(l) as Rec);
      expect(lines.map(({ at: _, ...rest }) => rest)).toEqual([
        { id: null, symbol: "AAA", field: "net_inflow.usd_value_24h", from: 1500000.1, to: 2500000 },
      ]);
      expect(r.stdout).toContain('"from":1500000.10000000000000000001');
    });
  });
});

describe("staking", () => {
  it("on the sandbox: details, trends and activities of the tokens named, tvl on the older path", async () => {
    const r = await cli(["staking", "--tickers", "VIRTUAL,AIXBT", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{
      staking_details: Rec;
      trends: Rec;
      staking_activities: Rec[];
    }>;
    expect(records.map((x) => x.staking_details.ticker)).toEqual(["VIRTUAL", "AIXBT"]);
    for (const x of records) {
      expect(x.staking_details.tvl).toBeTypeOf("number");
      expect(x.staking_details.net_staked).toMatch(/^\d+(\.\d)?[KMBT]?$/);
      expect(x.staking_activities.length).toBeGreaterThan(0);
    }
    const table = await cli(["staking", "--tickers", "VIRTUAL", "-o", "table"]);
    expect(rows(table.stdout)[0]).toMatch(
      /^SYMBOL\s+PRICE\s+TVL\s+NET STAKED\s+NET \$\s+NET %\s+RETENTION\s+STAKERS\s+HOLDERS$/,
    );
    expect(rows(table.stdout)[1]).toContain(records[0]!.staking_details.net_staked as string);
    const trends = await cli(["staking", "--tickers", "VIRTUAL", "--view", "trends", "-o", "table"]);
    expect(rows(trends.stdout)[0]).toMatch(/^SYMBOL\s+STAKES 24H\s+STAKED 24H\s+STAKED \$\s+UNSTAKES 24H/);
  });

  it("--activities: a row per activity with its token and user type; --where picks the dev moves", async () => {
    const all = await cli(["staking", "--tickers", "VIRTUAL,AIXBT", "--activities", "--json"]);
    expect(all.code, all.stderr).toBe(0);
    const activities = JSON.parse(all.stdout) as Rec[];
    expect(new Set(activities.map((a) => a.symbol))).toEqual(new Set(["VIRTUAL", "AIXBT"]));
    const devs = await cli([
      "staking",
      "--tickers",
      "VIRTUAL,AIXBT",
      "--activities",
      "--where",
      "user_type=dev",
      "--json",
    ]);
    const picked = JSON.parse(devs.stdout) as Rec[];
    expect(picked.length).toBe(activities.filter((a) => a.user_type === "dev").length);
    expect(picked.length).toBeGreaterThan(0);
    const table = await cli([
      "--color",
      "always",
      "staking",
      "--tickers",
      "VIRTUAL",
      "--activities",
      "-o",
      "table",
    ]);
    expect(rows(table.stdout)[0]).toMatch(/SYMBOL.*TIME.*ACTION.*AMOUNT.*USER.*WALLET/);
    // Smart money and devs stand out (yellow, red).
    expect(table.stdout).toMatch(new RegExp(`${ESC}\\[33msmart_money_user|${ESC}\\[31mdev`));
  });

  it("a server in the newer shape: tvl_usd read, formatted strings kept as written, a cut-off activity read", async () => {
    const server = await servers.stub((_req, res) =>
      sendJson(
        res,
        `{"success":true,"data":[{"staking_details":{"name":"Stk","ticker":"STK","contract_address":"0xs","latest_price":0.5,"tvl_usd":1234567.5,"net_staked":"3.4M","net_staked_usd":"29.4K","net_staked_percentage":12.5,"stake_retention_percentage":88.1,"total_stakers":1200,"token_holders":56000},"trends":{"stake_count_24h":4},"staking_activities":[{"tx_hash":"0x1","action":"Stake","user_type":"smart_money_user"}]}]}`,
      ),
    );
    const r = await cli(["staking", "--tickers", "STK", "-o", "table"], { base: server.url });
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)[1]).toMatch(
      /^STK\s+0\.5\s+\$1\.23M\s+3\.4M\s+29\.4K\s+12\.50%\s+88\.10%\s+1,200\s+56,000$/,
    );
    const json = await cli(["staking", "--tickers", "STK", "--json"], { base: server.url });
    expect(json.stdout).toContain('"net_staked": "3.4M"');
    const acts = await cli(["staking", "--tickers", "STK", "--activities", "--json"], { base: server.url });
    expect(JSON.parse(acts.stdout)).toEqual([
      { symbol: "STK", tx_hash: "0x1", action: "Stake", user_type: "smart_money_user" },
    ]);
  });
});

describe("trending --strategy", () => {
  it("sends the strategy; the sandbox ranks by it (mcap: the largest first)", async () => {
    const r = await cli(["trending", "-c", "base", "--strategy", "mcap", "--limit", "3", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const top = JSON.parse(r.stdout) as Rec[];
    const all = JSON.parse((await cli(["trending", "-c", "base", "--json"])).stdout) as Rec[];
    const byMcap = [...all].sort((a, b) => Number(b.mcap) - Number(a.mcap)).slice(0, 3);
    expect(top.map((x) => x.token_id)).toEqual(byMcap.map((x) => x.token_id));
    expect(top.map((x) => x.rank)).toEqual([1, 2, 3]);
  });

  it("anything else: exit 2 naming the three, before any request", async () => {
    const before = sandbox.stats.requests;
    const r = await cli(["trending", "--strategy", "volume"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'tokenintel: --strategy: unknown strategy "volume" (expected mcap, volume_and_staking, volume_and_smartmoney)\n',
    );
    expect(sandbox.stats.requests).toBe(before);
  });

  it("the newer record (numbers, other names): the table is full", async () => {
    const server = await servers.stub((req, res) => {
      expect(new URL(req.url ?? "/", "http://x").searchParams.get("strategy")).toBe("volume_and_staking");
      sendJson(
        res,
        `{"success":true,"data":[{"rank":1,"token_id":"n1","token_name":"Newer","token_symbol":"NEW","token_address":"0xn","network":"base","usd_price":2.5,"volume_24h_usd":2500000,"liquidity_usd":90000,"market_cap_usd":12000000,"price_change_percentage_1h":1.5,"price_change_percentage_24h":-3.25,"score":97.5}]}`,
      );
    });
    const r = await cli(["trending", "--strategy", "volume_and_staking", "-o", "table", "--wide"], {
      base: server.url,
    });
    expect(r.code, r.stderr).toBe(0);
    const [head, row] = rows(r.stdout);
    expect(head).toMatch(
      /^#\s+SYMBOL\s+NAME\s+PRICE\s+24H\s+VOL 24H\s+LIQ\s+MCAP\s+1H\s+SCORE\s+CHAIN\s+ADDRESS\s+ID$/,
    );
    expect(row).toMatch(
      /^1\s+NEW\s+Newer\s+2\.50\s+-3\.25%\s+\$2\.50M\s+\$90\.00K\s+\$12\.00M\s+\+1\.50%\s+97\.50\s+base\s+0xn\s+n1$/,
    );
  });
});

describe("--pay on the new commands, and the payee allow-list", () => {
  const payingRuns = [
    ["smart-money", "--tickers", "VIRTUAL"],
    ["staking", "--tickers", "VIRTUAL"],
    ["trending", "-c", "base", "--limit", "1", "--strategy", "volume_and_smartmoney"],
    ["check", "-c", "base", "--tickers", "VIRTUAL"],
  ];
  for (const args of payingRuns) {
    it(`${args[0]} pays per request without a key; --dry-run says what one request costs`, async () => {
      const s = await servers.sandbox();
      const dir = servers.folder();
      const r = await paying([...args, "--pay", "--json"], s.url, dir);
      expect(r.code, r.stderr).toBe(0);
      // check reads the agents endpoint beside the market: a request, and a payment, more.
      const requests = args[0] === "check" ? 2 : 1;
      expect(r.stderr).toMatch(
        requests === 2 ? /paid 2 requests, 0\.01 USDC on Base/ : /paid 1 request, 0\.005 USDC on Base/,
      );
      expect((JSON.parse(r.stdout) as unknown[]).length).toBe(1);
      expect(s.stats.payments).toEqual({ accepted: requests, refused: 0 });
      const ledger = readFileSync(join(dir, "data", "payments.jsonl"), "utf8");
      expect(ledger).toMatch(
        /"kind":"signed".*"endpoint":"[^"]*\/v1\/(smart-money-trends|stake-trends|trending|crypto-market\/)\?/,
      );
      expect(ledger).toContain('"outcome":"settled"');
      const plan = await paying([...args, "--dry-run"], s.url, dir);
      expect(plan.code, plan.stderr).toBe(0);
      // A list is answered in one request; trending's pages are not counted in advance.
      expect(plan.stderr).toMatch(
        args[0] === "check"
          ? /at least 2 requests, at least 0\.01 USDC in total/
          : args[0] === "trending"
            ? /at least 1 request/
            : /would pay 0\.005 USDC on Base per request .*; 1 request, 0\.005 USDC in total/,
      );
      expect(s.stats.payments).toEqual({ accepted: requests, refused: 0 });
    });
  }

  it("an offer to a payee pay-to does not allow: exit 5 naming both, nothing signed or recorded", async () => {
    const s = await servers.sandbox();
    const dir = servers.folder();
    const allowed = `0x${"1".repeat(40)}`;
    const r = await paying(["smart-money", "--tickers", "VIRTUAL", "--pay", "--pay-to", allowed], s.url, dir);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(
        `refusing to pay: the offer pays 0x5a1db0{31}beef, not a payee allowed by pay-to \\(${allowed}\\)`,
      ),
    );
    expect(s.stats.payments).toEqual({ accepted: 0, refused: 0 });
    expect(
      existsSync(join(dir, "data", "payments.jsonl"))
        ? readFileSync(join(dir, "data", "payments.jsonl"), "utf8")
        : "",
    ).toBe("");
    // From the environment too; the sandbox's own payee allowed, the payment goes through.
    const env = await run(["--base-url", s.url, "staking", "--tickers", "VIRTUAL", "--pay"], dir, {
      env: { TOKENINTEL_WALLET_KEY: WALLET, TOKENINTEL_PAY_TO: `${allowed},0x5a1db0${"0".repeat(30)}beef` },
    });
    expect(env.code, env.stderr).toBe(0);
    const bad = await paying(["staking", "--tickers", "VIRTUAL", "--pay", "--pay-to", "0x12"], s.url, dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('tokenintel: --pay-to: "0x12" is not an address (0x and 40 hex digits)\n');
  });

  it("Polygon's offer first where both are made, unless --pay-network says otherwise", async () => {
    const s = await servers.sandbox({ x402Networks: ["base", "polygon"] });
    const r = await paying(["smart-money", "--tickers", "VIRTUAL", "--pay", "--json"], s.url);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/paid 1 request, 0\.005 USDC on Polygon/);
    const base = await paying(
      ["smart-money", "--tickers", "VIRTUAL", "--pay", "--pay-network", "base", "--json"],
      s.url,
    );
    expect(base.stderr).toMatch(/paid 1 request, 0\.005 USDC on Base/);
  });
});

describe("api --list", () => {
  it("prints every registry endpoint: paths, method, price and the command that reads it", async () => {
    const r = await run(["api", "--list"], servers.folder());
    expect(r.code, r.stderr).toBe(0);
    const lines = rows(r.stdout);
    expect(lines[0]).toMatch(/^PATH\s+NEWER PATH\s+METHOD\s+USDC\s+COMMAND$/);
    const entries = Object.values(ENDPOINTS as Record<string, EndpointSpec>);
    expect(lines).toHaveLength(entries.length + 1);
    entries.forEach((e, i) => {
      const command = typeof e.command === "string" ? [e.command, e.commandFlag ?? []].flat() : ["api"];
      expect(lines[i + 1]!.split(/\s+/)).toEqual([e.path, e.newerPath ?? "-", e.method, e.price, ...command]);
    });
    expect(r.stdout).toMatch(/^\/v1\/smart-money-trends\s+-\s+GET\s+0\.005\s+smart-money$/m);
    expect(r.stdout).toMatch(/^\/v1\/mcp\/\s+-\s+POST\s+0\.10\s+ask --deep$/m);
    expect(r.stdout).toMatch(/^\/v1\/live-perp-strategy\/\s+-\s+GET\s+0\.50\s+api$/m);
    const both = await run(["api", "--list", "/v1/trending"], servers.folder());
    expect(both.code).toBe(2);
  });
});

describe("path generations (--api-paths, TOKENINTEL_API_PATHS, config api-paths)", () => {
  it("the older paths by default, the newer on request; the sandbox answers both", async () => {
    const before = { ...sandbox.stats.byPath };
    const count = (path: string) => (sandbox.stats.byPath[path] ?? 0) - (before[path] ?? 0);
    expect((await cli(["staking", "--tickers", "VIRTUAL", "--json"])).code).toBe(0);
    expect([count("/v1/stake-trends"), count("/v1/staking-intelligence")]).toEqual([1, 0]);
    const newer = await cli(["--api-paths", "newer", "staking", "--tickers", "VIRTUAL", "--json"]);
    expect(newer.code, newer.stderr).toBe(0);
    expect([count("/v1/stake-trends"), count("/v1/staking-intelligence")]).toEqual([1, 1]);
    // The newer path's record: tvl_usd, not tvl.
    const details = (JSON.parse(newer.stdout) as Array<{ staking_details: Rec }>)[0]!.staking_details;
    expect(Object.keys(details)).toContain("tvl_usd");
    const env = await cli(["trending", "-c", "base", "--limit", "1", "--json"], {
      env: { TOKENINTEL_API_PATHS: "newer" },
    });
    expect(env.code, env.stderr).toBe(0);
    expect(count("/v1/trending-tokens")).toBe(1);
    expect(Object.keys((JSON.parse(env.stdout) as Rec[])[0]!)).toContain("market_cap_usd");
    // An endpoint the newer docs did not rename keeps its one path.
    expect((await cli(["--api-paths", "newer", "smart-money", "--tickers", "VIRTUAL"])).code).toBe(0);
    expect(count("/v1/smart-money-trends")).toBe(1);
    const bad = await cli(["--api-paths", "newest", "trending"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--api-paths: unknown path generation "newest" \(expected older, newer\)/);
  });

  it('a 404 that says "no route" on one generation names the other', async () => {
    const server = await servers.stub((req, res) =>
      sendJson(res, { success: false, message: `no route for ${req.url?.split("?")[0]}` }, 404),
    );
    const older = await cli(["trending"], { base: server.url });
    expect(older.code).toBe(1);
    expect(older.stderr).toMatch(
      /no route for \/v1\/trending.*\(the newer path of this endpoint is \/v1\/trending-tokens: --api-paths newer\)\n$/,
    );
    const newer = await cli(["--api-paths", "newer", "staking", "--tickers", "A"], { base: server.url });
    expect(newer.stderr).toMatch(
      /no route for \/v1\/staking-intelligence.*\(the older path of this endpoint is \/v1\/stake-trends: --api-paths older\)\n$/,
    );
    // A 404 that says something else is left as it is.
    const other = await servers.stub((_req, res) =>
      sendJson(res, { success: false, message: "token not found" }, 404),
    );
    const plain = await cli(["trending"], { base: other.url });
    expect(plain.stderr).not.toMatch(/--api-paths/);
  });
});
