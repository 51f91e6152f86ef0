import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PaymentError } from "../../src/errors.js";
import { CAP_WINDOW_MS } from "../../src/payment/daily-cap.js";
import { countForCap, PaymentLedger } from "../../src/payment/ledger.js";
import { tempDir } from "../e2e/helpers.js";

// The daily cap's count of the ledger (issue 33): dates that go back or forward, lines it cannot
// read, and a lock taken over while the cap was checked.

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3_600_000;
const signed = (atMs: number) => ({ atMs, signed: true, atomic: 5000n });
const noAmount = (atMs: number) => ({ atMs, signed: true, atomic: undefined });

describe("countForCap", () => {
  it("dates a line no earlier than a line written before it; a future date counts as it is", () => {
    const { payments, unreadable } = countForCap(
      [signed(NOW - HOUR), signed(NOW - 48 * HOUR), signed(NOW + 72 * HOUR), signed(NOW - 50 * HOUR)],
      NOW,
      "f",
    );
    expect(unreadable).toBe(0);
    // The line dated two days back was written after one of an hour ago; the future date does not
    // push the line after it into the future.
    expect(payments.map((p) => p.atMs)).toEqual([NOW - HOUR, NOW - HOUR, NOW + 72 * HOUR, NOW - HOUR]);
  });

  it("a date it cannot read counts as now; an amount it cannot read is unreadable, unless out of the window", () => {
    const { payments, unreadable } = countForCap(
      [noAmount(NOW - CAP_WINDOW_MS - HOUR), signed(Number.NaN), noAmount(NOW - HOUR)],
      NOW,
      "f",
    );
    expect(payments).toEqual([{ atMs: NOW, atomic: 5000n }]);
    expect(unreadable).toBe(1);
  });
});

describe("the cap's lock", () => {
  it("a holder whose lock was taken over while it checked the cap does not append", () => {
    const dir = tempDir("tokenintel-cap-");
    dirs.push(dir);
    const data = join(dir.path, "data");
    mkdirSync(data, { mode: 0o700 });
    const file = join(data, "payments.jsonl");
    // The clock is read under the lock, just before the cap is checked: the lock changes hands then.
    const ledger = new PaymentLedger(file, () => {
      writeFileSync(join(data, "payments.cap.lock"), `${process.pid}\n${hostname()}\nother\n`);
      return NOW;
    });
    const line = {
      v: 1 as const,
      kind: "signed" as const,
      command: "c",
      endpoint: "e",
      network: "base",
      networkId: "base",
      asset: "a",
      symbol: "USDC",
      amount: "0.005000",
      atomic: "5000",
      payTo: "p",
      from: "f",
      nonce: "n",
      validAfter: "0",
      validBefore: "1",
      x402Version: 1,
    };
    expect(() =>
      ledger.appendSigned(line, 5000n, { atomic: 10_000n, text: "0.01", source: "--daily-cap" }),
    ).toThrow(
      new PaymentError(
        "refusing to pay: the daily cap's lock was taken over by another run while this one checked the cap; nothing was sent",
      ),
    );
    expect(existsSync(file)).toBe(false);
  });
});
