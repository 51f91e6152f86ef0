import { USDC_NETWORKS } from "../contract/assets.js";
import { PaymentError } from "../errors.js";
import { capRefusal, type DailyCap, describeCapRoom } from "./daily-cap.js";
import type { Holder } from "./holders.js";
import { PaymentLedger } from "./ledger.js";
import { boundedReason, fixedAmount, type Outcome, readAddress, readTransaction } from "./ledger-lines.js";
import type { KnownAsset, PaymentRequirement, SignedAuthorization } from "./offers.js";

// What the payment session writes in the ledger, and the daily cap it checks there: the signed
// line before a payment is sent (a line that cannot be written, or a cap that would be passed,
// stops it), then the outcome when the answer comes.

export interface LedgerOptions {
  /** The ledger file (ledger.ts: ledgerFile). */
  file: string;
  /** The command line, secrets already masked (a run paying through the session may name its own). */
  commandLine: string;
  dailyCap?: DailyCap;
  /** Whom a run paying through a shared session pays for: its caps apply on top of the session's. */
  holder?: Holder;
}

/** tokenintel's name of a network ("base") from an offer's v1 name or CAIP-2 id. */
function networkName(id: string): string {
  for (const [name, n] of Object.entries(USDC_NETWORKS)) if (n.v1 === id || n.caip2 === id) return name;
  return id;
}

export class PaymentRecorder {
  readonly ledger: PaymentLedger;
  private warned = false;

  constructor(
    private readonly options: LedgerOptions,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.ledger = new PaymentLedger(options.file, now);
  }

  /**
   * Before signing: a payment the daily cap (or its holder's) refuses is not signed. (The check that
   * binds is made again under the lock, when the signed line is appended.)
   */
  precheck(amount: bigint, holder?: Holder): void {
    const refusal = this.capRefusal(amount, holder);
    if (refusal) throw new PaymentError(refusal);
  }

  /**
   * Why the daily cap, or its holder's, refuses a payment of `amount` now; undefined when both allow
   * it (or there is none).
   */
  capRefusal(amount: bigint, holder?: Holder): string | undefined {
    const caps: Array<[DailyCap | undefined, string | undefined]> = [
      [this.options.dailyCap, undefined],
      [holder?.dailyCap, holder?.name],
    ];
    for (const [cap, name] of caps) {
      if (!cap) continue;
      const now = this.now();
      const refusal = capRefusal(this.ledger.forCap(now, name), amount, cap, now);
      if (refusal) return refusal;
    }
    return undefined;
  }

  /**
   * The signed line, appended before the payment is sent; throws when it must not be sent. It names
   * the command line of the run that pays (`command`, masked), else the one the session began with,
   * and the holder it pays for, whose daily cap is checked with the session's.
   */
  signed(
    endpoint: string,
    label: string | undefined,
    req: PaymentRequirement,
    asset: KnownAsset,
    auth: SignedAuthorization,
    command = this.options.commandLine,
    holder?: Holder,
  ): void {
    this.ledger.appendSigned(
      {
        v: 1,
        kind: "signed",
        command,
        endpoint,
        ...(label ? { label } : {}),
        network: networkName(req.network),
        networkId: req.network,
        asset: req.asset,
        symbol: asset.symbol,
        amount: fixedAmount(auth.value, asset.decimals),
        atomic: auth.value.toString(),
        payTo: auth.to,
        from: auth.from,
        nonce: auth.nonce,
        validAfter: auth.validAfter.toString(),
        validBefore: auth.validBefore.toString(),
        x402Version: req.x402Version,
        ...(holder ? { holder: holder.name } : {}),
      },
      auth.value,
      this.options.dailyCap,
      holder?.dailyCap,
    );
  }

  /**
   * The answer to a paid request. The payment has left by now, so a line that cannot be written
   * is said once on stderr and does not end the run (`payments` shows it without an outcome).
   */
  outcome(
    nonce: string,
    outcome: Outcome,
    details: { transaction?: unknown; payer?: unknown; reason?: string } = {},
  ): void {
    const transaction = readTransaction(details.transaction);
    const payer = readAddress(details.payer);
    const reason = boundedReason(details.reason);
    try {
      this.ledger.appendOutcome({
        v: 1,
        kind: "outcome",
        nonce,
        outcome,
        ...(transaction ? { transaction } : {}),
        ...(payer ? { payer } : {}),
        ...(reason ? { reason } : {}),
      });
    } catch (error) {
      if (this.warned) return;
      this.warned = true;
      this.log(`tokenintel: warning: ${(error as Error).message} (the outcome of a payment is not recorded)`);
    }
  }

  /** The dry run's words on the daily cap, for payments of `price`; nothing without a cap. */
  plan(price: bigint): string | undefined {
    const cap = this.options.dailyCap;
    if (!cap) return undefined;
    const now = this.now();
    return describeCapRoom(this.ledger.forCap(now), price, cap, now);
  }
}
