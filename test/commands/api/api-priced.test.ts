import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, type EndpointSpec, pathsOf } from "../../../src/contract/endpoints.js";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { type HostileServer, sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// The endpoints the provider names with a price and no shape, reached with `tokenintel api`: each in
// the registry with its method and price, listed by `api --list`; `api --pay` refuses an offer above
// the registry's price unless --max-payment says how much a request may cost. Run in-process
// through run() against servers that ask what the test tells them to.

const WALLET = generatePrivateKey();
const servers = useServers();
neverShown(WALLET, WALLET.slice(2));

/** The priced endpoints without a documented shape, as the provider's pricing names them. */
const PRICED = [
  ["/v1/wallet-safety-score/", "GET", "0.005"],
  ["/v1/bubble-map/", "GET", "0.005"],
  ["/v1/oi-data/", "GET", "0.005"],
  ["/v1/live-perp-strategy/", "GET", "0.50"],
  ["/v1/perp-trading-research/", "POST", "0.005"],
  ["/v1/participant-trends/", "GET", "0.005"],
  ["/v1/monthly-revenue/", "GET", "0.005"],
  ["/v1/agent-metrics/", "GET", "0.005"],
] as const;

/** A server that asks `atomic` USDC (Base, x402 v1) for every request without a payment, and answers one with. */
function asking(atomic: string): Promise<HostileServer> {
  return servers.stub((req, res, seen) => {
    if (req.headers["x-payment"]) return sendJson(res, { success: true, data: { echoed: seen.url } });
    sendJson(
      res,
      {
        x402Version: 1,
        error: "X-PAYMENT header is required",
        accepts: [
          {
            scheme: "exact",
            network: "base",
            maxAmountRequired: atomic,
            resource: `http://127.0.0.1${seen.url}`,
            description: "one answer",
            mimeType: "application/json",
            payTo: `0x${"ab".repeat(20)}`,
            maxTimeoutSeconds: 60,
            asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            extra: { name: "USD Coin", version: "2" },
          },
        ],
      },
      402,
    );
  });
}

const pay = (server: HostileServer, dir: string, args: string[]) =>
  run(["--base-url", server.url, "api", ...args, "--pay"], dir, { env: { TOKENINTEL_WALLET_KEY: WALLET } });
const ledger = (dir: string) =>
  existsSync(join(dir, "data", "payments.jsonl"))
    ? readFileSync(join(dir, "data", "payments.jsonl"), "utf8")
    : "";
const paid = (server: HostileServer) => server.requests.filter((r) => r.headers["x-payment"]).length;

describe("priced endpoints without a documented shape", () => {
  it("are in the registry with their method and price, reached with api, and listed by api --list", async () => {
    const entries = Object.values(ENDPOINTS as Record<string, EndpointSpec>);
    const list = await run(["api", "--list"], servers.folder());
    expect(list.code, list.stderr).toBe(0);
    for (const [path, method, price] of PRICED) {
      const entry = entries.find((e) => pathsOf(e).includes(path));
      expect(entry, path).toBeDefined();
      expect([entry!.method, entry!.price, entry!.command], path).toEqual([
        method,
        price,
        { none: expect.any(String) },
      ]);
      expect(list.stdout).toMatch(
        new RegExp(`^${path}\\s+-\\s+${method}\\s+${price.replace(".", "\\.")}\\s+api$`, "m"),
      );
    }
  });

  it("api --pay refuses an offer above the registry's price, naming both, before signing", async () => {
    const server = await asking("20000"); // 0.02 USDC, four times the registry's 0.005
    const dir = servers.folder();
    const r = await pay(server, dir, ["/v1/wallet-safety-score/", "-f", "address=0x1"]);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      "tokenintel: refusing to pay: the offer asks 0.02 USDC per request, above the registry's price of 0.005 USDC for /v1/wallet-safety-score/ (--max-payment allows a higher price, if you mean to pay it)\n",
    );
    expect(paid(server)).toBe(0);
    expect(ledger(dir)).toBe("");
    // The path without its slash, and a POST, are the same entries.
    const post = await pay(server, dir, ["-X", "POST", "/v1/perp-trading-research", "-f", "q=x"]);
    expect(post.code).toBe(5);
    expect(post.stderr).toMatch(
      /0\.02 USDC per request, above the registry's price of 0\.005 USDC for \/v1\/perp-trading-research/,
    );
    // A path written another way reaches the same entry: dot segments, and the 301 form without the slash.
    for (const path of ["/v1/agents/.", "/v1/crypto-market", "/v1/x/../agents"]) {
      const other = await pay(server, dir, [path]);
      expect(other.code, path).toBe(5);
      expect(other.stderr, path).toMatch(/above the registry's price of 0\.005 USDC/);
    }
    expect(paid(server)).toBe(0);
  });

  it("--max-payment allows it: paid once at the offer's price, and recorded", async () => {
    const server = await asking("20000");
    const dir = servers.folder();
    const r = await pay(server, dir, ["/v1/bubble-map/", "-f", "token=0x1", "--max-payment", "0.02"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { echoed: "/v1/bubble-map/?token=0x1" } });
    expect(paid(server)).toBe(1);
    expect(ledger(dir)).toMatch(/"kind":"signed".*"amount":"0\.020000"/);
    // A --max-payment below the offer is refused as any offer over it is, naming both.
    const low = await pay(server, dir, ["/v1/bubble-map/", "--max-payment", "0.01"]);
    expect(low.code).toBe(5);
    expect(low.stderr).toMatch(
      /refusing to pay: 0\.02 USDC per request is over --max-payment 0\.01 by 0\.01 USDC/,
    );
    expect(paid(server)).toBe(1);
  });

  it("live perp strategy at its price of 0.50: refused under the default cap, paid when --max-payment allows it", async () => {
    const server = await asking("500000");
    const dir = servers.folder();
    const r = await pay(server, dir, ["/v1/live-perp-strategy/", "-f", "modelId=1"]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /refusing to pay: 0\.5 USDC per request is over --max-payment 0\.01 by 0\.49 USDC/,
    );
    const ok = await pay(server, dir, [
      "/v1/live-perp-strategy/",
      "--max-payment",
      "0.50",
      "--max-spend",
      "0.50",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(paid(server)).toBe(1);
  });

  it("a path outside the registry keeps the caps alone; an offer at the registry's price is paid", async () => {
    const server = await asking("8000"); // 0.008: under the default --max-payment 0.01
    const dir = servers.folder();
    const other = await pay(server, dir, ["/v1/not-in-the-registry/"]);
    expect(other.code, other.stderr).toBe(0);
    const listed = await pay(server, dir, ["/v1/monthly-revenue/"]);
    expect(listed.code).toBe(5);
    expect(listed.stderr).toMatch(/0\.008 USDC per request, above the registry's price of 0\.005 USDC/);
    const atPrice = await pay(await asking("5000"), dir, ["/v1/monthly-revenue/"]);
    expect(atPrice.code, atPrice.stderr).toBe(0);
  });
});
