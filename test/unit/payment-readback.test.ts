import { generatePrivateKey } from "viem/accounts";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiResponse } from "../../src/api/client.js";
import { PaymentError } from "../../src/errors.js";
import {
  type PaymentRequirement,
  readPaymentRequirements,
  readSignedPayment,
} from "../../src/payment/offers.js";
import { MAX_PAYMENT_VALIDITY_SECONDS, PaymentSession } from "../../src/payment/session.js";
import type * as Sign from "../../src/payment/sign.js";

// The read-back: whatever the signer library does, what leaves is checked against what was allowed.
// The signer is the real one; a test may put a misbehaving step in front of it.

type Signer = ReturnType<typeof Sign.createSigner>;
type Step = (
  real: Signer,
  res: ApiResponse,
  req: PaymentRequirement,
  validitySeconds: number,
) => Promise<Record<string, string>>;
let misbehave: Step | undefined;
vi.mock("../../src/payment/sign.js", async (importOriginal) => {
  const real = await importOriginal<typeof Sign>();
  return {
    createSigner: (key: string, max: string) => {
      const signer = real.createSigner(key, max);
      return {
        ...signer,
        sign: (res: ApiResponse, req: PaymentRequirement, validity: number) =>
          misbehave ? misbehave(signer, res, req, validity) : signer.sign(res, req, validity),
      };
    },
  };
});
beforeEach(() => {
  misbehave = undefined;
});

const WALLET = generatePrivateKey();
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = `0x${"ab".repeat(20)}`;
const offer = (over: Record<string, unknown> = {}) => ({
  scheme: "exact",
  network: "base",
  maxAmountRequired: "5000",
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  asset: USDC,
  extra: { name: "USD Coin", version: "2" },
  ...over,
});
const answer = (over: Record<string, unknown> = {}): ApiResponse => ({
  status: 402,
  headers: {},
  body: { x402Version: 1, accepts: [offer(over)] },
  text: "",
  url: "",
});
const session = (maxSpend = "0.10") =>
  new PaymentSession(
    { walletKey: WALLET, maxPayment: "0.01", maxSpend, dryRun: false },
    { requests: undefined, exact: false },
    () => {},
    false,
  );
const decode = (headers: Record<string, string>) =>
  JSON.parse(Buffer.from(Object.values(headers)[0]!, "base64").toString("utf8"));
const encode = (name: string, doc: unknown) => ({
  [name]: Buffer.from(JSON.stringify(doc)).toString("base64"),
});

describe("the signed payment is read back before it is sent", () => {
  it("a signer that signs another amount than the one checked: refused, nothing returned", async () => {
    misbehave = (real, res, req, validity) =>
      real.sign(res, { ...req, raw: { ...req.raw, maxAmountRequired: "10000" } }, validity);
    const s = session();
    await expect(s.pay(answer(), "page 1")).rejects.toThrow(
      "refusing to send the payment: the signed authorization is for 0.01 USDC, not the 0.005 USDC checked; nothing was sent",
    );
    expect(s.summary()).toBeUndefined();
  });

  it("a signer that stretches the validity window past the cap: refused", async () => {
    misbehave = (real, res, req) => real.sign(res, req, 315360000);
    await expect(session().pay(answer(), undefined)).rejects.toThrow(
      // Read back a moment after signing: a second may have passed (315,359,999 s).
      /the signed authorization stays valid for 3153[56]\d{4} s, over the 300 s cap; nothing was sent/,
    );
  });

  it("a header whose authorization was changed after signing: the signature does not cover it", async () => {
    misbehave = async (real, res, req, validity) => {
      const doc = decode(await real.sign(res, req, validity));
      doc.payload.authorization.to = `0x${"cd".repeat(20)}`;
      req.payTo = doc.payload.authorization.to; // even if the payee matched the offer
      return encode("X-PAYMENT", doc);
    };
    await expect(session().pay(answer(), undefined)).rejects.toThrow(
      "refusing to send the payment: the signature does not cover the authorization the header carries; nothing was sent",
    );
  });

  it("a Permit2 payload, or one with more in it than the authorization: refused", async () => {
    misbehave = async (real, res, req, validity) => {
      const doc = decode(await real.sign(res, req, validity));
      doc.payload = { permit2Authorization: doc.payload.authorization, signature: doc.payload.signature };
      return encode("X-PAYMENT", doc);
    };
    await expect(session().pay(answer(), undefined)).rejects.toThrow(
      /not the EIP-3009 transferWithAuthorization expected \(the payload carries permit2Authorization\)/,
    );
  });

  it("what is reserved is given back when nothing was sent, and only then", async () => {
    const s = session("0.005");
    misbehave = (real, res, req) => real.sign(res, req, 315360000);
    await expect(s.pay(answer(), undefined)).rejects.toThrow(PaymentError);
    misbehave = undefined;
    const headers = await s.pay(answer(), undefined);
    expect(decode(headers).payload.authorization.value).toBe("5000");
    await expect(s.pay(answer(), undefined)).rejects.toThrow(/over --max-spend 0\.005/);
  });

  it("pages answered at once cannot together pass --max-spend", async () => {
    const s = session("0.02");
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => s.pay(answer(), undefined)));
    const sent = results.filter((r) => r.status === "fulfilled");
    expect(sent).toHaveLength(4);
    const total = sent.reduce(
      (sum, r) =>
        sum +
        BigInt(
          decode((r as PromiseFulfilledResult<Record<string, string>>).value).payload.authorization.value,
        ),
      0n,
    );
    expect(total).toBe(20000n);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason.message).toMatch(/over --max-spend 0\.02/);
  });
});

describe("readSignedPayment", () => {
  const [req] = readPaymentRequirements({ x402Version: 1, accepts: [offer()] }, undefined);
  const authorization = {
    from: `0x${"11".repeat(20)}`,
    to: PAY_TO,
    value: "5000",
    validAfter: "0",
    validBefore: "1700000300",
    nonce: `0x${"22".repeat(32)}`,
  };
  const good = {
    x402Version: 1,
    scheme: "exact",
    network: "base",
    payload: { authorization, signature: `0x${"33".repeat(65)}` },
  };
  it("returns the authorization of a well-formed v1 payment", () => {
    expect(readSignedPayment(encode("X-PAYMENT", good), req!)).toMatchObject({
      value: 5000n,
      validBefore: 1700000300n,
      to: PAY_TO,
    });
  });
  it("refuses anything else", () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [encode("PAYMENT-SIGNATURE", good), /expected one x-payment header/],
      [{ "X-PAYMENT": "not base64!" }, /not base64/],
      [encode("X-PAYMENT", { ...good, x402Version: 2 }), /not x402 v1/],
      [encode("X-PAYMENT", { ...good, extensions: {} }), /the payment carries extensions/],
      [
        encode("X-PAYMENT", {
          ...good,
          payload: { ...good.payload, authorization: { ...authorization, value: "1e4" } },
        }),
        /its value is not a decimal string/,
      ],
      [
        encode("X-PAYMENT", {
          ...good,
          payload: { ...good.payload, authorization: { ...authorization, value: 5000 } },
        }),
        /its value is not a decimal string/,
      ],
      [encode("X-PAYMENT", { ...good, payload: { authorization } }), /the payload lacks signature/],
      [
        encode("X-PAYMENT", { ...good, payload: { ...good.payload, signature: `0x${"33".repeat(200)}` } }),
        /not a 65-byte signature/,
      ],
    ];
    for (const [headers, message] of cases) expect(() => readSignedPayment(headers, req!)).toThrow(message);
  });
  it("the cap is a few minutes", () => {
    expect(MAX_PAYMENT_VALIDITY_SECONDS).toBe(300);
  });
});

describe("amount fields", () => {
  it("the price is the field the version signs; a disagreeing other field is a problem", () => {
    const v1 = readPaymentRequirements({ x402Version: 1, accepts: [offer({ amount: "1" })] }, undefined);
    expect(v1[0]!.amount).toBe("5000");
    expect(v1[0]!.problem).toBe(
      "its amount (1) disagrees with the maxAmountRequired (5000) that x402 v1 signs",
    );
    const same = readPaymentRequirements(
      { x402Version: 1, accepts: [offer({ amount: "05000" })] },
      undefined,
    );
    expect(same[0]!.problem).toBeUndefined();
    const header = Buffer.from(
      JSON.stringify({ x402Version: 2, accepts: [offer({ network: "eip155:8453", amount: "7000" })] }),
    ).toString("base64");
    const v2 = readPaymentRequirements({}, header);
    expect(v2[0]!.amount).toBe("7000");
    expect(v2[0]!.problem).toMatch(/its maxAmountRequired \(5000\) disagrees with the amount \(7000\)/);
    const text = readPaymentRequirements(
      { x402Version: 1, accepts: [offer({ amount: "\u001b]52;c;x\u0007" })] },
      undefined,
    );
    expect(text[0]!.problem).toBe(
      "its amount (not a decimal string) disagrees with the maxAmountRequired (5000) that x402 v1 signs",
    );
  });
});
