import { describe, expect, it } from "vitest";
import { sendJson } from "../../e2e/hostile-server.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel trending --strategy` run in-process through run() against the sandbox and against a
// server in the newer shape: the strategy sent and ranked by, anything else refused, the newer record.

const { servers, sandbox, cliAt } = useKeyedSandbox("trending", {}, { COLUMNS: "200" });
const cli = (args: string[], o: { env?: Record<string, string>; base?: string; dir?: string } = {}) =>
  cliAt({ url: o.base ?? sandbox.url }, args, o.env, o.dir ?? servers.folder());

type Rec = Record<string, unknown>;
const rows = (stdout: string) => stdout.trimEnd().split("\n");

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
