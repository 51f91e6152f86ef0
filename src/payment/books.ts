import type { KnownAsset, SignedAuthorization } from "./offers.js";
import type { PaymentRecorder } from "./recorder.js";

// The payment session's books: what is held against --max-spend, what was signed and what the
// server accepted, the payments sent and not yet answered, and each one's outcome in the ledger.

export interface PaymentTally {
  signed: number;
  signedAmount: bigint;
  accepted: number;
  acceptedAmount: bigint;
  asset: KnownAsset | undefined;
}

/** What the summary after a paid command tells: the tally, who paid, the settlements, what is open. */
export interface PaymentTotals extends PaymentTally {
  payer: string | undefined;
  settlements: readonly string[];
  /** Signed and sent with no answer read (the run stopped, the connection died): may yet be settled. */
  unknown: bigint;
}

type Settlement = { transaction?: unknown; payer?: unknown } | undefined;

export class PaymentBooks {
  /**
   * Held against --max-spend: every value signed, plus those being signed right now. Reserved
   * before signing, so concurrent pages cannot together pass the cap; never given back once a
   * signed payment may have left.
   */
  private held = 0n;
  private signing = 0;
  /** Payments signed (the wallet's risk, whatever became of them), and those the server accepted. */
  private signed = 0;
  private signedAmount = 0n;
  private accepted = 0;
  private acceptedAmount = 0n;
  /** Payments sent and not yet answered: their value, and their nonce (their name in the ledger). */
  private readonly inFlight = new Map<
    Record<string, string>,
    { value: bigint; nonce: string; lost: boolean }
  >();
  private asset: KnownAsset | undefined;
  private readonly settlements: string[] = [];
  private payer: string | undefined;
  private unknown = 0n;
  /** The amount of the last payment signed: the price of the next page, as far as can be known. */
  private last: bigint | undefined;

  constructor(private readonly recorder: PaymentRecorder | undefined) {}

  /** What --max-spend holds: signed, and being signed. */
  get reserved(): bigint {
    return this.held;
  }

  /** The number the next payment would be (counting those being signed now). */
  get nextPayment(): number {
    return this.signed + this.signing + 1;
  }

  get lastAmount(): bigint | undefined {
    return this.last;
  }

  get lastAsset(): KnownAsset | undefined {
    return this.asset;
  }

  /** Requests paid for and answered so far. */
  get paidRequests(): number {
    return this.accepted;
  }

  /** Held before signing, in the same turn as the check of the caps. */
  reserve(amount: bigint): void {
    this.held += amount;
    this.signing++;
  }

  /** Signing failed: signed at most in memory, nothing left this process. */
  release(amount: bigint): void {
    this.held -= amount;
    this.signing--;
  }

  /** The wallet that signed (read from the signer, a dry run's too). */
  signedBy(address: string): void {
    this.payer = address;
  }

  /** Signed and recorded: counted, and in flight until its answer. */
  sent(headers: Record<string, string>, auth: SignedAuthorization, asset: KnownAsset): void {
    this.signing--;
    this.signed++;
    this.signedAmount += auth.value;
    this.last = auth.value;
    this.asset = asset;
    this.inFlight.set(headers, { value: auth.value, nonce: auth.nonce, lost: false });
  }

  /** An attempt of the paid request got no answer (cut off, timed out) and it is sent again. */
  answerLost(headers: Record<string, string>): void {
    const sent = this.inFlight.get(headers);
    if (sent) sent.lost = true;
  }

  /** The server refused the payment sent with these headers: its outcome, with the server's reason. */
  refused(headers: Record<string, string> | undefined, reason: () => string | undefined): void {
    const sent = headers && this.inFlight.get(headers);
    if (!sent) return;
    this.inFlight.delete(headers);
    if (sent.lost) {
      // Sent again after an attempt whose answer was lost: the server may have taken it then, and
      // refuses it now as used. Not known to be refused.
      this.unknown += sent.value;
      this.recorder?.outcome(sent.nonce, "unknown", {
        reason: `an answer was lost, and the same payment sent again was refused (${reason() ?? "no reason given"}): it may have been taken the first time`,
      });
      return;
    }
    this.recorder?.outcome(sent.nonce, "refused", { reason: reason() });
  }

  /** A paid request was answered: the payment counts, with its settlement reference if sent. */
  async settled(headers: Record<string, string>, settlementOf: () => Promise<Settlement>): Promise<void> {
    const sent = this.inFlight.get(headers);
    if (sent === undefined) return;
    this.inFlight.delete(headers);
    this.accepted++;
    this.acceptedAmount += sent.value;
    const settlement = await settlementOf();
    if (typeof settlement?.transaction === "string") this.settlements.push(settlement.transaction);
    this.recorder?.outcome(sent.nonce, "settled", settlement);
  }

  /** A paid request ended with no answer read: its outcome is unknown, said now. */
  unanswered(headers: Record<string, string>, why: string): void {
    const sent = this.inFlight.get(headers);
    if (!sent) return;
    this.inFlight.delete(headers);
    this.unknown += sent.value;
    this.recorder?.outcome(sent.nonce, "unknown", { reason: `no answer was read (${why})` });
  }

  /** Waits until every payment sent has its answer, or `ms` has passed. */
  async drain(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.inFlight.size > 0 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** The payments still in flight at the run's end are recorded as unknown. */
  finish(): void {
    for (const { nonce, value } of this.inFlight.values()) {
      this.unknown += value;
      this.recorder?.outcome(nonce, "unknown", { reason: "no answer to the paid request was read" });
    }
    this.inFlight.clear();
  }

  tally(): PaymentTally {
    return {
      signed: this.signed,
      signedAmount: this.signedAmount,
      accepted: this.accepted,
      acceptedAmount: this.acceptedAmount,
      asset: this.asset,
    };
  }

  totals(): PaymentTotals {
    return { ...this.tally(), payer: this.payer, settlements: this.settlements, unknown: this.unknown };
  }
}
