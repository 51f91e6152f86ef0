import type { ServerResponse } from "node:http";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// A 402 whose offer holds a field of megabytes: whatever refuses it (the offer policy, the signer,
// the price of an unpaid request, the server refusing the payment sent) says so in one line that
// quotes at most a few hundred characters of the field, and how many more it cut.

const WALLET = generatePrivateKey();
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = `0x${"ab".repeat(20)}`;
const HUGE = "x".repeat(3_000_000);
/** What a line may hold: its own words and at most a few hundred characters of each field quoted. */
const MAX_LINE = 600;
const servers = useServers();
neverShown(WALLET, WALLET.slice(2));

function offer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: "exact",
    network: "base",
    maxAmountRequired: "5000",
    resource: "http://127.0.0.1/v1/thing",
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    asset: USDC,
    extra: { name: "USD Coin", version: "2" },
    ...over,
  };
}

/** Asks for a payment in the body (x402 v1, 3 MB and more); a payment sent is refused by `refused`. */
async function offerServer(accepts: unknown[], refused = (res: ServerResponse) => sendJson(res, {}, 402)) {
  return servers.stub((_req, res, seen) => {
    if (seen.headers["x-payment"]) return refused(res);
    sendJson(res, { x402Version: 1, error: "X-PAYMENT header is required", accepts }, 402);
  });
}

async function api(
  url: string,
  args: string[],
  env: Record<string, string> = { TOKENINTEL_WALLET_KEY: WALLET },
) {
  return run(["--base-url", url, "--retries", "0", "api", "/v1/thing", ...args], servers.folder(), { env });
}

/** Every line of stderr short, and the one that says why names how much of the field it cut. */
function expectBounded(stderr: string, says: RegExp): void {
  const lines = stderr.trimEnd().split("\n");
  for (const line of lines) expect(line.length, line.slice(0, 300)).toBeLessThanOrEqual(MAX_LINE);
  const line = lines.find((l) => says.test(l));
  expect(line, stderr.slice(0, 2000)).toBeDefined();
  expect(line).toMatch(/x{100}… \(\d{7} more characters cut\)/);
}

describe("an offer with a field of 3 MB", () => {
  it("the signer refusing it (a payTo that is no address): one short line", async () => {
    const s = await offerServer([offer({ payTo: HUGE })]);
    for (const args of [["--pay"], ["--pay", "-v"], ["--dry-run"]]) {
      const r = await api(s.url, args);
      expect(r.code, args.join(" ")).toBe(5);
      expectBounded(r.stderr, /^tokenintel: could not sign the payment: /);
    }
    // Without a wallet key, a dry run signs nothing: its plan names the payee.
    const plan = await api(s.url, ["--dry-run"], {});
    expectBounded(plan.stderr, /^tokenintel: dry run: would pay 0.005 USDC on Base per request to x+… /);
  });

  it.each([
    ["asset", { asset: HUGE }, /^tokenintel: refusing to pay: asset x+… .* on base is not a known asset/],
    ["network", { network: HUGE }, /^tokenintel: refusing to pay: asset 0x\w+ on x+… /],
    ["scheme", { scheme: HUGE }, /^tokenintel: refusing to pay: scheme 'x+… .*' is not supported/],
    [
      "domain",
      { extra: { name: HUGE, version: HUGE } },
      /^tokenintel: refusing to pay: .* EIP-712 domain 'x+… /,
    ],
  ])("the offer policy refusing its %s: one short line", async (_, over, says) => {
    const s = await offerServer([offer(over)]);
    const r = await api(s.url, ["--pay"]);
    expect(r.code).toBe(5);
    expectBounded(r.stderr, says);
  });

  it("the price of a request not paid for: one short line", async () => {
    const s = await offerServer([offer({ asset: HUGE })]);
    const r = await api(s.url, []);
    expect(r.code).toBe(5);
    expectBounded(r.stderr, /^tokenintel: payment required \(HTTP 402: 5000 atomic units of x+… /);
  });

  it("the server refusing the payment sent, with a reason of 3 MB: one short line", async () => {
    const s = await offerServer([offer()], (res) =>
      sendJson(res, { x402Version: 1, error: HUGE, accepts: [] }, 402),
    );
    const r = await api(s.url, ["--pay"]);
    expect(r.code).toBe(5);
    expectBounded(r.stderr, /^tokenintel: the server refused the payment \(HTTP 402: x+… /);
  });
});

it("thousands of offers refused: the first three reasons and how many more", async () => {
  const offers = Array.from({ length: 20_000 }, (_, i) => offer({ scheme: `scheme-${i}` }));
  const s = await offerServer(offers);
  const r = await api(s.url, ["--pay"]);
  expect(r.code).toBe(5);
  expect(r.stderr).toBe(
    "tokenintel: refusing to pay: scheme 'scheme-0' is not supported (exact only); scheme 'scheme-1' is not supported (exact only); scheme 'scheme-2' is not supported (exact only); and 19997 more offers refused\n",
  );
});
