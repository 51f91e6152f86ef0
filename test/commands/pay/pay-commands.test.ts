import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// --pay on smart-money, staking, trending and check, run in-process through run() against sandboxes
// that take payments: a payment per request without a key, the dry run's price, the payee allow-list
// (pay-to) and the network chosen among several offers.

const WALLET = `0x${"5a".repeat(32)}`;
const servers = useServers();
neverShown(WALLET.slice(2));

const paying = (args: string[], base: string, dir = servers.folder()) =>
  run(["--base-url", base, ...args], dir, { env: { TOKENINTEL_WALLET_KEY: WALLET, COLUMNS: "200" } });

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
