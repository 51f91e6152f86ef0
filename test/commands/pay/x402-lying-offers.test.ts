import { chmodSync, chownSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { MAX_PAYMENT_VALIDITY_SECONDS } from "../../../src/payment/session.js";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import { type HostileServer, type SeenRequest, sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// Servers that lie in their x402 offers. Each test reads what the program (run
// in-process through run()) actually signed out of the X-PAYMENT / PAYMENT-SIGNATURE headers the hostile
// server received.

const WALLET = generatePrivateKey();
const PAYER = privateKeyToAccount(WALLET).address;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = `0x${"ab".repeat(20)}`;
const servers = useServers();
const dir = { path: servers.folder() };
neverShown(WALLET, WALLET.slice(2));

const withKey = { TOKENINTEL_WALLET_KEY: WALLET };
const short = `${PAYER.slice(0, 6)}…${PAYER.slice(-4)}`;

function v1Offer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: "exact",
    network: "base",
    maxAmountRequired: "5000",
    resource: "http://127.0.0.1/v1/thing",
    description: "one answer",
    mimeType: "application/json",
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    asset: USDC,
    extra: { name: "USD Coin", version: "2" },
    ...over,
  };
}

function v2Offer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: "exact",
    network: "eip155:8453",
    amount: "5000",
    asset: USDC,
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    extra: { name: "USD Coin", version: "2" },
    ...over,
  };
}

const b64 = (doc: unknown) => Buffer.from(JSON.stringify(doc)).toString("base64");

function paymentRequired(res: ServerResponse, version: 1 | 2, offer: unknown, error?: string): void {
  if (version === 1) {
    sendJson(res, { x402Version: 1, error: error ?? "X-PAYMENT header is required", accepts: [offer] }, 402);
    return;
  }
  const required = {
    x402Version: 2,
    error: error ?? "payment required",
    resource: { url: "http://127.0.0.1/v1/thing", description: "one answer", mimeType: "application/json" },
    accepts: [offer],
  };
  sendJson(res, {}, 402, { "payment-required": b64(required) });
}

interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}
interface Payment {
  header: string;
  doc: {
    x402Version: number;
    payload: { authorization: Authorization; signature: string } & Record<string, unknown>;
    accepted?: Record<string, unknown>;
  } & Record<string, unknown>;
  /** Unix seconds when the server received it. */
  at: number;
}

function paymentOf(seen: SeenRequest): Omit<Payment, "at"> | undefined {
  for (const header of ["x-payment", "payment-signature"]) {
    const value = seen.headers[header];
    if (typeof value === "string")
      return { header, doc: JSON.parse(Buffer.from(value, "base64").toString("utf8")) as Payment["doc"] };
  }
  return undefined;
}

interface OfferServer extends HostileServer {
  /** Every payment received, in order. */
  payments: Payment[];
}

/**
 * A server that asks for a payment on every request without one; a paid request is answered by
 * `paid` (200 with an empty directory page unless it says otherwise).
 */
async function offerServer(
  version: 1 | 2,
  offer: Record<string, unknown>,
  paid: (res: ServerResponse, payment: Payment, index: number) => void = (res) =>
    sendJson(res, { success: true, data: [] }),
): Promise<OfferServer> {
  const payments: Payment[] = [];
  const s = await servers.stub((_req, res, seen) => {
    const payment = paymentOf(seen);
    if (!payment) return paymentRequired(res, version, offer);
    const p = { ...payment, at: Math.floor(Date.now() / 1000) };
    payments.push(p);
    paid(res, p, payments.length - 1);
  });
  return Object.assign(s, { payments });
}

const api = (s: HostileServer, args: string[], env: Record<string, string> = withKey) =>
  run(["--base-url", s.url, "--retries", "0", "api", "/v1/thing", ...args], dir.path, { env });

const directory = (s: HostileServer, args: string[], env: Record<string, string> = withKey) =>
  run(["--base-url", s.url, "--retries", "0", "directory", "-c", "base", ...args], dir.path, { env });

const lines = (text: string) => text.trim().split("\n");

describe("the amount signed is the amount checked, shown and counted", () => {
  it("an offer whose amount fields disagree is refused before signing, in --pay and in --dry-run", async () => {
    // tokenintel checked `amount`; the v1 signer signs `maxAmountRequired`.
    const s = await offerServer(1, v1Offer({ amount: "1", maxAmountRequired: "10000" }));
    const refusal =
      "tokenintel: refusing to pay: the offer's amount is ambiguous: its amount (1) disagrees with the maxAmountRequired (10000) that x402 v1 signs";
    for (const args of [["--pay"], ["--dry-run"]]) {
      for (const env of [withKey, {}]) {
        if (args[0] === "--pay" && !("TOKENINTEL_WALLET_KEY" in env)) continue;
        const r = await api(s, [...args, "--max-payment", "1", "--max-spend", "10"], env);
        expect(r.code, r.stderr).toBe(5);
        expect(r.stdout).toBe("");
        expect(lines(r.stderr)).toEqual([refusal]);
      }
    }
    expect(s.payments).toEqual([]);

    const v2 = await offerServer(2, v2Offer({ amount: "5000", maxAmountRequired: "9000" }));
    const r2 = await api(v2, ["--pay"]);
    expect(r2.code).toBe(5);
    expect(lines(r2.stderr)).toEqual([
      "tokenintel: refusing to pay: the offer's amount is ambiguous: its maxAmountRequired (9000) disagrees with the amount (5000) that x402 v2 signs",
    ]);
    const missing = await offerServer(2, v2Offer({ amount: undefined, maxAmountRequired: "5000" }));
    const r3 = await api(missing, ["--pay"]);
    expect(r3.code).toBe(5);
    expect(lines(r3.stderr)).toEqual([
      "tokenintel: refusing to pay: the offer's amount is ambiguous: its amount, the amount x402 v2 signs, is missing",
    ]);
    expect([...v2.payments, ...missing.payments]).toEqual([]);
  });

  for (const version of [1, 2] as const) {
    it(`x402 v${version}: the value inside the signed authorization is the one checked, shown in the dry run and summed up`, async () => {
      const offer = version === 1 ? v1Offer({ maxAmountRequired: "7000" }) : v2Offer({ amount: "7000" });
      const s = await offerServer(version, offer, (res) => sendJson(res, { ok: true }));
      const plan =
        "tokenintel: dry run: would pay 0.007 USDC on Base per request to 0xabababababababababababababababababababab; 1 request, 0.007 USDC in total; caps: --max-payment 0.01, --max-spend 0.10";
      const dryNoKey = await api(s, ["--dry-run"], {});
      expect(dryNoKey.code, dryNoKey.stderr).toBe(0);
      expect(lines(dryNoKey.stderr)).toEqual([plan]);
      const dryWithKey = await api(s, ["--dry-run"]);
      expect(dryWithKey.code, dryWithKey.stderr).toBe(0);
      expect(lines(dryWithKey.stderr)).toEqual([
        `${plan}; amount read back from an authorization signed in memory and discarded`,
      ]);
      expect(s.payments).toEqual([]);

      const r = await api(s, ["--pay"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('{"ok":true}\n');
      expect(s.payments).toHaveLength(1);
      const { header, doc } = s.payments[0]!;
      expect(header).toBe(version === 1 ? "x-payment" : "payment-signature");
      expect(doc.payload.authorization.value).toBe("7000");
      expect(doc.payload.authorization.from).toBe(PAYER);
      expect(doc.payload.authorization.to.toLowerCase()).toBe(PAY_TO);
      expect(lines(r.stderr)).toEqual([`tokenintel: paid 1 request, 0.007 USDC on Base, from ${short}`]);
    });
  }

  it("--max-spend bounds the sum of every value signed, even when requests are answered at once", async () => {
    // 90 addresses: three requests in flight together, each answered by a 402 at the same moment.
    const addresses = Array.from({ length: 90 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const held: Array<() => void> = [];
    const payments: Payment[] = [];
    const s = await servers.stub((_req, res, seen) => {
      const payment = paymentOf(seen);
      if (payment) {
        payments.push({ ...payment, at: 0 });
        return sendJson(res, { success: true, data: [] });
      }
      const release = () => {
        for (const answer of held.splice(0)) answer();
      };
      held.push(() => paymentRequired(res, 1, v1Offer()));
      // All three at once; the timer only keeps a client that sent fewer from waiting forever.
      if (held.length === 3) release();
      else setTimeout(release, 3000);
    });
    const r = await directory(s, [
      "--addresses",
      addresses.join(","),
      "--pay",
      "--max-spend",
      "0.01",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      "refusing to pay: payment 3 would bring the total to 0.015 USDC, over --max-spend 0.01 by 0.005 USDC",
    );
    const signed = payments.reduce((sum, p) => sum + BigInt(p.doc.payload.authorization.value), 0n);
    expect(payments).toHaveLength(2);
    expect(signed).toBe(10000n);
  });
});

describe("a paid request answered by another 402 is not paid again", () => {
  it("x402 v1: exit 5 naming the server's reason; one signature; the summary counts it as signed", async () => {
    const s = await offerServer(1, v1Offer(), (res) =>
      paymentRequired(res, 1, v1Offer(), "insufficient_funds"),
    );
    const r = await api(s, ["--pay"]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toEqual([
      "tokenintel: the server refused the payment (HTTP 402: insufficient_funds); not signing a second one for the same request",
      `tokenintel: paid 0 requests, 0 USDC on Base, from ${short}; 1 more signed but not accepted, 0.005 USDC (signed in all: 0.005 USDC, the most this command can cost)`,
    ]);
    expect(s.payments).toHaveLength(1);
    expect(s.requests).toHaveLength(2);
  });

  it("x402 v2: what was paid for is kept; the refused page ends the run and is counted apart", async () => {
    const records = Array.from({ length: 100 }, (_, i) => ({
      id: `t${i}`,
      symbol: `T${i}`,
      name: `Token ${i}`,
      address: `0x${(i + 1).toString(16).padStart(40, "0")}`,
      chain: "base",
      ecosystem: "base",
    }));
    const s = await offerServer(2, v2Offer(), (res, _payment, index) => {
      if (index === 0) return sendJson(res, { success: true, data: records });
      paymentRequired(res, 2, v2Offer(), "nonce already used");
    });
    const r = await directory(s, ["--pay", "--ndjson"]);
    expect(r.code).toBe(5);
    expect(lines(r.stdout)).toHaveLength(100);
    const err = lines(r.stderr);
    expect(err[0]).toMatch(
      /^tokenintel: the server refused the payment \(HTTP 402: nonce already used\); not signing a second one for the same request/,
    );
    expect(err[1]).toBe(
      `tokenintel: paid 1 request, 0.005 USDC on Base, from ${short}; 1 more signed but not accepted, 0.005 USDC (signed in all: 0.01 USDC, the most this command can cost)`,
    );
    expect(err).toHaveLength(2);
    expect(s.payments).toHaveLength(2);
    expect(s.requests).toHaveLength(4);
  });
});

describe("an authorization is valid for minutes, whatever the offer asks", () => {
  for (const version of [1, 2] as const) {
    it(`x402 v${version}: maxTimeoutSeconds of ten years is signed for at most 300 s`, async () => {
      const tenYears = 315360000;
      const offer =
        version === 1 ? v1Offer({ maxTimeoutSeconds: tenYears }) : v2Offer({ maxTimeoutSeconds: tenYears });
      const s = await offerServer(version, offer, (res) => sendJson(res, { ok: true }));
      const r = await api(s, ["--pay"]);
      expect(r.code, r.stderr).toBe(0);
      expect(s.payments).toHaveLength(1);
      const { doc, at } = s.payments[0]!;
      const validBefore = Number(doc.payload.authorization.validBefore);
      expect(validBefore).toBeGreaterThan(at);
      expect(validBefore - at).toBeLessThanOrEqual(MAX_PAYMENT_VALIDITY_SECONDS);
      // v2 echoes the offer as sent, so the server can match it; the signed window is what binds.
      if (version === 2) expect(doc.accepted).toEqual(offer);
    });
  }

  it("the cap is documented in the help", async () => {
    const r = await run(["directory", "--help"], dir.path);
    expect(r.stdout.replace(/\s+/g, " ")).toContain(
      `each authorization valid for ${MAX_PAYMENT_VALIDITY_SECONDS} s at most`,
    );
  });

  it("an offer whose maxTimeoutSeconds is not a positive number of seconds is refused", async () => {
    for (const bad of [0, -5, "soon", true]) {
      const s = await offerServer(2, v2Offer({ maxTimeoutSeconds: bad }));
      const r = await api(s, ["--pay"]);
      expect(r.code).toBe(5);
      expect(lines(r.stderr)).toEqual([
        "tokenintel: refusing to pay: the offer's maxTimeoutSeconds is not a number of seconds of 1 or more",
      ]);
      expect(s.payments).toEqual([]);
    }
  });
});

describe("no payment over plain http to another machine", () => {
  it("--pay and --dry-run are refused before any request (exit 2), in directory and api", async () => {
    // .invalid never resolves: a request that went out would end in a DNS error, exit 1.
    const base = "http://api.example.invalid";
    const refusal =
      "tokenintel: refusing to pay over http to api.example.invalid: the offer could be rewritten on the way; use an https base URL";
    const runs = [
      ["directory", "-c", "base", "--pay"],
      ["directory", "-c", "base", "--dry-run"],
      ["api", "/v1/crypto-metainfo", "-f", "chain=base", "--pay"],
    ];
    for (const args of runs) {
      const r = await run(["--base-url", base, "--retries", "0", ...args], dir.path, { env: withKey });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([refusal]);
    }
  });
});

describe("only EIP-3009 transferWithAuthorization is signed", () => {
  for (const version of [1, 2] as const) {
    it(`x402 v${version}: an offer naming Permit2 is refused before signing`, async () => {
      const extra = { name: "USD Coin", version: "2", assetTransferMethod: "permit2" };
      const s = await offerServer(version, version === 1 ? v1Offer({ extra }) : v2Offer({ extra }));
      const r = await api(s, ["--pay"]);
      expect(r.code).toBe(5);
      expect(lines(r.stderr)).toEqual([
        "tokenintel: refusing to pay: the offer asks for the 'permit2' transfer method; tokenintel signs only EIP-3009 transferWithAuthorization",
      ]);
      expect(s.payments).toEqual([]);
    });
  }

  it("what is sent is one EIP-3009 authorization and its signature, nothing more", async () => {
    const extra = { name: "USD Coin", version: "2", assetTransferMethod: "eip3009" };
    const s = await offerServer(2, v2Offer({ extra }), (res) => sendJson(res, { ok: true }));
    const r = await api(s, ["--pay"]);
    expect(r.code, r.stderr).toBe(0);
    const { doc } = s.payments[0]!;
    expect(Object.keys(doc.payload).sort()).toEqual(["authorization", "signature"]);
    expect(Object.keys(doc.payload.authorization).sort()).toEqual([
      "from",
      "nonce",
      "to",
      "validAfter",
      "validBefore",
      "value",
    ]);
    expect(doc.payload.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(doc.extensions).toBeUndefined();
  });
});

describe("a wallet key file others can read is refused, like ssh does", () => {
  it("group- or world-readable: exit 2 naming the mode and the fix, before any request", async () => {
    const s = await offerServer(1, v1Offer(), (res) => sendJson(res, { ok: true }));
    const file = join(dir.path, "wallet key");
    writeFileSync(file, `${WALLET}\n`, { mode: 0o600 });
    for (const mode of [0o644, 0o640, 0o604]) {
      chmodSync(file, mode);
      const r = await api(s, ["--pay", "--wallet-key-file", file], {});
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([
        `tokenintel: --wallet-key-file: permissions 0${mode.toString(8)} for '${file}' are too open; run chmod 600 '${file}'`,
      ]);
    }
    expect(s.requests).toHaveLength(0);
    chmodSync(file, 0o600);
    const ok = await api(s, ["--pay", "--wallet-key-file", file], {});
    expect(ok.code, ok.stderr).toBe(0);
    expect(s.payments).toHaveLength(1);
  });

  it("a file owned by another user: exit 2, before any request", async () => {
    const s = await offerServer(1, v1Offer());
    const me = process.getuid!();
    let file = "/etc/passwd"; // root's, readable by all: stands for another user's file
    if (me === 0) {
      file = join(dir.path, "nobody.key");
      writeFileSync(file, `${WALLET}\n`, { mode: 0o600 });
      chownSync(file, 65534, 65534);
    }
    const owner = statSync(file).uid;
    expect(owner).not.toBe(me);
    const r = await api(s, ["--pay", "--wallet-key-file", file], {});
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      `tokenintel: --wallet-key-file: '${file}' is owned by uid ${owner}, not by you (uid ${me}); a wallet key file must be your own`,
    ]);
    expect(s.requests).toHaveLength(0);
  });
});
