import { PaymentError } from "../errors.js";
import { formatUnits } from "./amounts.js";
import type { DailyCap } from "./daily-cap.js";

// A holder pays through a session it shares with others (mcp --http: each bearer token is one):
// its own daily cap, counted from the ledger lines that name it, and its own max-spend for the
// session's life, both on top of the session's caps, which still bound every holder together.
// One holder cannot spend what another was given.

export interface Holder {
  /** The holder's name, written on every ledger line of a payment made for it. */
  name: string;
  /** Counted from the ledger's lines that name the holder, in the last 24 hours. */
  dailyCap?: DailyCap;
  /** For the session's life, in atomic units of USDC, and as typed. */
  maxSpend?: { atomic: bigint; text: string };
}

const usdc = (atomic: bigint) => `${formatUnits(atomic.toString(), 6)} USDC`;

/** What each holder has signed or is signing, held against its max-spend. */
export class HolderSpending {
  private readonly held = new Map<string, bigint>();

  /** What is held for `name` so far. */
  spent(name: string): bigint {
    return this.held.get(name) ?? 0n;
  }

  /**
   * Holds `amount` for the holder, or refuses it when it would pass the holder's max-spend. Made in
   * the same turn as the session's own check, so that concurrent payments cannot race past it.
   */
  reserve(holder: Holder | undefined, amount: bigint): void {
    if (!holder) return;
    const total = this.spent(holder.name) + amount;
    const cap = holder.maxSpend;
    if (cap && total > cap.atomic)
      throw new PaymentError(
        `refusing to pay: ${usdc(amount)} more would bring what ${holder.name} signed to ${usdc(total)}, over its max-spend ${cap.text} by ${usdc(total - cap.atomic)}`,
      );
    this.held.set(holder.name, total);
  }

  /** Signing failed: nothing left this process, the amount is the holder's again. */
  release(holder: Holder | undefined, amount: bigint): void {
    if (holder) this.held.set(holder.name, this.spent(holder.name) - amount);
  }
}
