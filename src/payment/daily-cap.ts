import { formatUnits } from "./amounts.js";

// The daily cap (--daily-cap, TOKENINTEL_DAILY_CAP, config daily-cap): no payment is signed that
// would take the total signed in the last 24 hours, by every run (counted from the ledger), over
// it. Pure: the sums and the time the cap frees up; ledger.ts reads the payments under a lock.

export const CAP_WINDOW_MS = 24 * 3_600_000;

export interface DailyCap {
  /** In atomic units of USDC (6 decimals), and as typed. */
  atomic: bigint;
  text: string;
  /** Where it was set: "--daily-cap", "TOKENINTEL_DAILY_CAP" or "config daily-cap". */
  source: string;
}

/** One payment signed, as the cap counts it. */
export interface SignedPayment {
  atMs: number;
  atomic: bigint;
}

/** What the ledger holds for the cap: the payments read, and the signed lines whose amount cannot be. */
export interface CapLedger {
  payments: SignedPayment[];
  /** Signed lines (in the window, or of no readable date) whose amount cannot be read: no payment is made past them. */
  unreadable: number;
  /** The ledger file, to name in the refusal. */
  file: string;
}

const unreadableText = (ledger: CapLedger) =>
  `the payment ledger ${ledger.file} holds ${ledger.unreadable} signed line${ledger.unreadable === 1 ? "" : "s"} of the last 24 hours whose amount cannot be read, so the daily cap cannot count ${ledger.unreadable === 1 ? "it" : "them"}`;

/** The sum signed in the 24 hours before `now` (a payment dated later, by a clock set back, counts). */
export function signedInWindow(payments: readonly SignedPayment[], now: number): bigint {
  let total = 0n;
  for (const p of payments) if (p.atMs > now - CAP_WINDOW_MS) total += p.atomic;
  return total;
}

/**
 * When a payment of `amount` can be signed under the cap: `now` when it fits already, else the
 * moment enough of the last 24 hours' payments age out (the oldest first); undefined when it never
 * can (the payment alone is over the cap).
 */
export function freesUpAt(
  payments: readonly SignedPayment[],
  amount: bigint,
  cap: bigint,
  now: number,
): number | undefined {
  if (amount > cap) return undefined;
  const recent = payments.filter((p) => p.atMs > now - CAP_WINDOW_MS).sort((a, b) => a.atMs - b.atMs);
  let total = recent.reduce((sum, payment) => sum + payment.atomic, 0n);
  if (total + amount <= cap) return now;
  for (const p of recent) {
    total -= p.atomic;
    if (total + amount <= cap) return p.atMs + CAP_WINDOW_MS;
  }
  return now; // unreachable: with every payment aged out, amount <= cap fits
}

/** "2026-11-26 04:40:12 UTC (in 23 h 59 min)". */
export function describeTime(atMs: number, now: number): string {
  const iso = new Date(atMs)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
  const minutes = Math.max(1, Math.ceil((atMs - now) / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts = [h > 0 && `${h} h`, m > 0 && `${m} min`].filter(Boolean);
  return `${iso} (in ${parts.join(" ")})`;
}

const usdc = (atomic: bigint) => `${formatUnits(atomic.toString(), 6)} USDC`;

/** Why a payment is refused by the cap, and when the cap frees up; undefined when it fits. */
export function capRefusal(
  ledger: CapLedger,
  amount: bigint,
  cap: DailyCap,
  now: number,
): string | undefined {
  if (ledger.unreadable > 0)
    return `refusing to pay under the daily cap: ${unreadableText(ledger)} (mend or remove ${ledger.unreadable === 1 ? "that line" : "those lines"}; \`tokenintel payments\` counts them)`;
  const { payments } = ledger;
  const signed = signedInWindow(payments, now);
  if (signed + amount <= cap.atomic) return undefined;
  const over = `the daily cap ${cap.text} (${cap.source})`;
  const at = freesUpAt(payments, amount, cap.atomic, now);
  if (at === undefined)
    return `refusing to pay: one payment of ${usdc(amount)} is over ${over} on its own; the cap never frees up for it`;
  return `refusing to pay: ${usdc(amount)} more would bring the last 24 hours' signed total to ${usdc(signed + amount)}, over ${over} by ${usdc(signed + amount - cap.atomic)}; the cap frees up at ${describeTime(at, now)}`;
}

/** The dry run's words on the cap: what the last 24 hours hold and how many payments fit. */
export function describeCapRoom(ledger: CapLedger, price: bigint, cap: DailyCap, now: number): string {
  if (ledger.unreadable > 0)
    return `daily cap ${cap.text} (${cap.source}): no payment would be made: ${unreadableText(ledger)}`;
  const { payments } = ledger;
  const signed = signedInWindow(payments, now);
  const left = cap.atomic > signed ? cap.atomic - signed : 0n;
  const count = price > 0n ? left / price : undefined;
  const room =
    count === undefined ? "" : `, room for ${count} more payment${count === 1n ? "" : "s"} at this price`;
  const at = count === 0n ? freesUpAt(payments, price, cap.atomic, now) : undefined;
  const freed = at === undefined ? "" : `; the cap frees up at ${describeTime(at, now)}`;
  return `daily cap ${cap.text} (${cap.source}): ${usdc(signed)} signed in the last 24 h (payment ledger), ${usdc(left)} left${room}${freed}`;
}
