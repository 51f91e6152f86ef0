import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { joinOutcomes } from "../../src/commands/payments/records.js";
import { PaymentError } from "../../src/errors.js";
import { CAP_WINDOW_MS } from "../../src/payment/daily-cap.js";
import { countForCap, PaymentLedger } from "../../src/payment/ledger.js";
import { tempDir } from "../e2e/helpers.js";

// The daily cap's count of the ledger: dates that go back or forward, lines it cannot
// read, and a lock taken over while the cap was checked.

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3_600_000;
const signed = (atMs: number) => ({ atMs, signed: true, atomic: 5000n });
const DAY = 24 * HOUR;
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

describe("a holder's daily cap", () => {
  it("counts the payments made for it, and a damaged line that cannot say for whom", () => {
    const at = (holder: string | null | undefined) => ({ ...signed(NOW - HOUR), holder });
    const entries = [at("alice"), at("bob"), at(null), at(undefined), at("alice")];
    expect(countForCap(entries, NOW, "f", "alice").payments).toHaveLength(3);
    expect(countForCap(entries, NOW, "f", "bob").payments).toHaveLength(2);
    // The session's own cap counts every line.
    expect(countForCap(entries, NOW, "f").payments).toHaveLength(5);
  });

  it("is checked under the cap's lock with the session's, on the line that names the holder", () => {
    const { ledger } = ledgerAt(NOW);
    const cap = { atomic: 5000n, text: "0.005", source: "token alice" };
    ledger.appendSigned({ ...signedLine("0x01"), holder: "alice" }, 5000n, undefined, cap);
    ledger.appendSigned({ ...signedLine("0x02"), holder: "bob" }, 5000n, undefined, cap);
    expect(() =>
      ledger.appendSigned({ ...signedLine("0x03"), holder: "alice" }, 5000n, undefined, cap),
    ).toThrow(/over the daily cap 0\.005 \(token alice\)/);
    expect(ledger.readAll().lines.map((l) => (l.kind === "signed" ? l.holder : undefined))).toEqual([
      "alice",
      "bob",
    ]);
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

/** A ledger file in a private data folder of its own, and a clock the test sets. */
function ledgerAt(start: number) {
  const dir = tempDir("tokenintel-cap-");
  dirs.push(dir);
  const data = join(dir.path, "data");
  mkdirSync(data, { mode: 0o700 });
  const file = join(data, "payments.jsonl");
  const clock = { now: start };
  return { file, clock, ledger: new PaymentLedger(file, () => clock.now) };
}

const signedLine = (nonce: string) => ({
  v: 1 as const,
  kind: "signed" as const,
  command: "tokenintel directory --pay",
  endpoint: "http://127.0.0.1/v1/crypto-metainfo",
  network: "base",
  networkId: "base",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  symbol: "USDC",
  amount: "0.005000",
  atomic: "5000",
  payTo: `0x${"ab".repeat(20)}`,
  from: `0x${"cd".repeat(20)}`,
  nonce,
  validAfter: "0",
  validBefore: "1",
  x402Version: 1,
});
const outcomeLine = (at: number, nonce: string) =>
  `${JSON.stringify({ v: 1, kind: "outcome", at: new Date(at).toISOString(), nonce, outcome: "unknown", reason: "r".repeat(200) })}\n`;
/** Copies of `line` to make `bytes` or a little more. */
const repeated = (line: string, bytes: number) => line.repeat(Math.ceil(bytes / line.length));

describe("the cap reads back to every payment of the window, whatever follows it", () => {
  it("a payment of the last hour, then 3 MB of lines dated five days back (an older tokenintel's): counted", () => {
    const { file, ledger } = ledgerAt(NOW);
    const payment = { ...signedLine("0x01"), at: new Date(NOW - HOUR).toISOString() };
    writeFileSync(
      file,
      `${JSON.stringify(payment)}\n${repeated(outcomeLine(NOW - 5 * DAY, "0x01"), 3_000_000)}`,
      {
        mode: 0o600,
      },
    );
    expect(ledger.forCap(NOW).payments).toEqual([{ atMs: NOW - HOUR, atomic: 5000n }]);
  });

  it("written by this tokenintel, the clock then set back five days: each line says how late the lines before it are", () => {
    const { file, clock, ledger } = ledgerAt(NOW - HOUR);
    ledger.appendSigned(signedLine("0x01"), 5000n, undefined);
    clock.now = NOW - 5 * DAY;
    ledger.appendOutcome({
      v: 1,
      kind: "outcome",
      nonce: "0x01",
      outcome: "unknown",
      reason: "r".repeat(200),
    });
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const dated = lines.map((l) => JSON.parse(l) as { at: string; latest: string });
    expect(dated.map((l) => [l.at, l.latest])).toEqual([
      [new Date(NOW - HOUR).toISOString(), new Date(NOW - HOUR).toISOString()],
      [new Date(NOW - 5 * DAY).toISOString(), new Date(NOW - HOUR).toISOString()],
    ]);
    // `payments` shows the payment, not the ledger's bookkeeping.
    expect(joinOutcomes(ledger.readAll().lines).map((p) => Object.hasOwn(p, "latest"))).toEqual([false]);
    // 3 MB more of the line the set-back clock wrote.
    appendFileSync(file, repeated(`${lines[1]}\n`, 3_000_000));
    clock.now = NOW;
    expect(ledger.forCap(NOW).payments).toEqual([{ atMs: NOW - HOUR, atomic: 5000n }]);
    // The cap holds it: a second payment of 0.005 under a cap of 0.005 is refused.
    const cap = { atomic: 5000n, text: "0.005", source: "--daily-cap" };
    expect(() => ledger.appendSigned(signedLine("0x02"), 5000n, cap)).toThrow(/over the daily cap 0.005/);
  });

  it("stops at a line that says nothing before it is in the window", () => {
    const { file, clock, ledger } = ledgerAt(NOW - 3 * DAY);
    // A signed line torn before its date: were it read, it would count as now, and stop every payment.
    writeFileSync(file, '{"v":1,"kind":"signed","comm\n', { mode: 0o600 });
    ledger.appendSigned(signedLine("0x01"), 5000n, undefined);
    clock.now = NOW - HOUR;
    ledger.appendSigned(signedLine("0x02"), 5000n, undefined);
    expect(ledger.forCap(NOW)).toMatchObject({
      payments: [{ atMs: NOW - HOUR, atomic: 5000n }],
      unreadable: 0,
    });
  });
});
