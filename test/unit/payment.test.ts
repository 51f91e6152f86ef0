import { describe, expect, it } from "vitest";
import { PaymentError, UsageError } from "../../src/errors.js";
import { parseAmount } from "../../src/payment/amounts.js";
import type { PaymentRequirement } from "../../src/payment/offers.js";
import { PaymentSession } from "../../src/payment/session.js";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const req = (over: Partial<PaymentRequirement> = {}): PaymentRequirement => ({
  x402Version: 1,
  scheme: "exact",
  network: "base",
  amount: "5000",
  asset: USDC,
  payTo: "0xpay",
  extra: { name: "USD Coin", version: "2" },
  raw: {},
  ...over,
});
const session = (maxPayment = "0.01", maxSpend = "0.10") =>
  new PaymentSession(
    { walletKey: undefined, maxPayment, maxSpend, dryRun: false },
    { requests: undefined, exact: false },
    () => {},
    false,
  );

describe("parseAmount", () => {
  it("converts exactly, without floats", () => {
    expect(parseAmount("--max-spend", "0.10", 6)).toBe(100000n);
    expect(parseAmount("--max-spend", "1", 6)).toBe(1000000n);
    expect(parseAmount("--max-spend", "0.000001", 6)).toBe(1n);
    expect(parseAmount("--max-spend", "123456789.5", 6)).toBe(123456789500000n);
  });
  it("rejects what is not an amount, or finer than the asset", () => {
    expect(() => parseAmount("--max-payment", "-1", 6)).toThrow(UsageError);
    expect(() => parseAmount("--max-payment", "1e3", 6)).toThrow(/expected an amount/);
    expect(() => parseAmount("--max-payment", "0.0000001", 6)).toThrow(/more than 6 decimals/);
  });
});

describe("choosing what to pay", () => {
  it("takes the first requirement that passes every rule", () => {
    const chosen = session().choose([
      req({ scheme: "upto" }),
      req({ network: "eip155:8453", amount: "7000" }),
    ]);
    expect(chosen.amount).toBe(7000n);
    expect(chosen.asset.networkName).toBe("Base");
  });
  it("refuses unknown assets and networks, wrong domains, and prices over the caps", () => {
    const cases: Array<[PaymentRequirement, RegExp]> = [
      [req({ asset: "0xdeadbeef" }), /asset 0xdeadbeef on base is not a known asset/],
      [req({ network: "polygon" }), /not a known asset/],
      [req({ extra: { name: "USD Coin", version: "1" } }), /EIP-712 domain 'USD Coin' version '1'/],
      [req({ extra: undefined }), /domain '\(none\)'/],
      [req({ amount: "10001" }), /0\.010001 USDC per request is over --max-payment 0\.01 by 0\.000001 USDC/],
    ];
    for (const [r, message] of cases) {
      expect(() => session().choose([r])).toThrow(PaymentError);
      expect(() => session().choose([r])).toThrow(message);
    }
    expect(() => session("1", "0.004").choose([req()])).toThrow(/over --max-spend 0\.004 by 0\.001 USDC/);
    expect(() => session().choose([])).toThrow(/sent no requirements/);
  });
  it("accepts Base Sepolia USDC with its own domain", () => {
    const chosen = session().choose([
      req({
        network: "eip155:84532",
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        extra: { name: "USDC", version: "2" },
      }),
    ]);
    expect(chosen.asset.networkName).toBe("Base Sepolia");
  });
});
