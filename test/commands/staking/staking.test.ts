import { describe, expect, it } from "vitest";
import { sendJson } from "../../e2e/hostile-server.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel staking` run in-process through run() against the sandbox and against a server in the
// newer shape: details, trends and activities of the tokens named, --activities, and the newer
// record's fields.

const { servers, sandbox, cliAt } = useKeyedSandbox("staking", {}, { COLUMNS: "200" });
const cli = (args: string[], o: { env?: Record<string, string>; base?: string; dir?: string } = {}) =>
  cliAt({ url: o.base ?? sandbox.url }, args, o.env, o.dir ?? servers.folder());

type Rec = Record<string, unknown>;
const rows = (stdout: string) => stdout.trimEnd().split("\n");
const ESC = "\u001b";

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
