import { describe, expect, it } from "vitest";
import { failingSubject } from "../../../src/commands/check/run.js";
import { runCommand, useStubServer } from "../harness.js";

// check's liquidity-against-market-cap share carries significant digits, so real
// liquidity is never reported as "0"; JSON, CSV and the table give the same figure.

const KEY = { TOKENINTEL_API_KEY: "sk_test_key_123456" };
const server = useStubServer();

const RECORD = {
  id: "liq-1",
  token_info: {
    symbol: "THIN",
    name: "Thin Liquidity",
    address: "0x00000000000000000000000000000000000000aa",
  },
  // 100 × 113,640.82 / 1,281,803,064.19 = 0.0088657004…%
  token_metrics: { usd_price: "0.5", mcap: "1281803064.19", total_liquidity: "113640.82" },
};

// The agents endpoint does not know the token: check judges it by its market record alone.
server.on("GET", "/v1/agents", () => ({ body: { success: true, data: [] } }));
server.on("GET", "/v1/crypto-market/", () => ({
  body: {
    success: true,
    data: [RECORD],
    meta: { pagination: { page: 1, pageSize: 100, pageCount: 1, total: 1 } },
  },
}));

const check = (...format: string[]) =>
  runCommand(["check", "-c", "base", "--tickers", "THIN", ...format], { server, env: KEY });

describe("check: the liquidity share", () => {
  it("JSON carries 4 significant digits, rounded half up, not 0", async () => {
    const r = await check("--json");
    expect(r.code).toBe(0);
    const [row] = JSON.parse(r.stdout) as Array<{ level: string; reasons: Array<Record<string, unknown>> }>;
    expect(row!.level).toBe("high");
    expect(row!.reasons).toEqual([
      {
        level: "high",
        rule: "liquidity against market cap",
        field: "token_metrics.total_liquidity/token_metrics.mcap",
        value: "0.008866",
        unit: "%",
        threshold: "< 1",
      },
    ]);
    expect(Number(row!.reasons[0]!.value)).toBeGreaterThan(0);
  });

  it("CSV and the table give the same figure as JSON", async () => {
    const csv = await check("-o", "csv");
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain("token_metrics.total_liquidity/token_metrics.mcap=0.008866% (high at < 1)");
    const table = await check("-o", "table");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("token_metrics.total_liquidity/token_metrics.mcap=0.008866%");
  });
});

// One token named and failing is "the token named", never "1 of the 1 token named".
describe("check --fail-on: who fails, in words", () => {
  it("one token named and failing is 'the token named'", async () => {
    const r = await check("--fail-on", "high", "--json");
    expect(r.code).toBe(3);
    expect(r.stderr).toBe("tokenintel: the token named is at high risk or above (--fail-on high): THIN\n");
  });
  it.each([
    [1, 2, "1 of the 2 tokens named is"],
    [2, 3, "2 of the 3 tokens named are"],
    [3, 3, "all 3 tokens named are"],
    [1, 1, "the token named is"],
    [2, 1, "2 tokens matching the 1 named are"],
  ])("%i failing of %i named: %s", (failing, named, text) => {
    expect(failingSubject(failing, named)).toBe(text);
  });
});
