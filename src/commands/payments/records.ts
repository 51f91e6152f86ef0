import type { LedgerLine, Outcome, OutcomeLine, SignedLine } from "../../payment/ledger-lines.js";

// The ledger's lines as records: each payment signed with its outcome (joined by nonce), and the
// per-day totals per network. Sums are made in atomic units (bigint), never in floats.

/** A payment as `payments` shows it: its signed line without the ledger's own bookkeeping. */
export interface PaymentRecord extends Omit<SignedLine, "v" | "kind" | "latest"> {
  outcome: Outcome;
  /** When the outcome was recorded; absent when none was (the run ended before the answer). */
  outcomeAt?: string;
  transaction?: string;
  payer?: string;
  reason?: string;
}

/** Which outcome line tells most, when a payment has several: settled, then refused, then unknown. */
const RANK: Record<Outcome, number> = { settled: 3, refused: 2, unknown: 1 };

export function joinOutcomes(lines: readonly LedgerLine[]): PaymentRecord[] {
  const outcomes = new Map<string, OutcomeLine>();
  for (const line of lines) {
    if (line.kind !== "outcome") continue;
    const known = outcomes.get(line.nonce);
    if (!known || RANK[line.outcome] > RANK[known.outcome]) outcomes.set(line.nonce, line);
  }
  const records: PaymentRecord[] = [];
  for (const line of lines) {
    if (line.kind !== "signed") continue;
    const { v: _v, kind: _kind, latest: _latest, ...signed } = line;
    const o = outcomes.get(line.nonce);
    records.push({
      ...signed,
      outcome: o?.outcome ?? "unknown",
      ...(o
        ? { outcomeAt: o.at }
        : { reason: "no outcome recorded (the run ended first, or is still running)" }),
      ...(o?.transaction ? { transaction: o.transaction } : {}),
      ...(o?.payer ? { payer: o.payer } : {}),
      ...(o?.reason ? { reason: o.reason } : {}),
    });
  }
  return records;
}

export interface DayTotal {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  network: string;
  symbol: string;
  /** Payments signed that day. */
  payments: number;
  /** Sums as exact decimal strings: everything signed, and what of it was settled. */
  signed: string;
  settled: string;
}

/** Totals per UTC day and network, oldest day first; `format` writes atomic units as a decimal. */
export function dailyTotals(
  records: readonly PaymentRecord[],
  format: (atomic: bigint) => string,
): DayTotal[] {
  const groups = new Map<
    string,
    { day: string; network: string; symbol: string; n: number; signed: bigint; settled: bigint }
  >();
  for (const r of records) {
    const day = new Date(Date.parse(r.at)).toISOString().slice(0, 10);
    const key = `${day} ${r.network} ${r.symbol}`;
    const g = groups.get(key) ?? { day, network: r.network, symbol: r.symbol, n: 0, signed: 0n, settled: 0n };
    g.n++;
    g.signed += BigInt(r.atomic);
    if (r.outcome === "settled") g.settled += BigInt(r.atomic);
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.network.localeCompare(b.network))
    .map((group) => ({
      day: group.day,
      network: group.network,
      symbol: group.symbol,
      payments: group.n,
      signed: format(group.signed),
      settled: format(group.settled),
    }));
}
