import type { ApiResponse, PaymentHook } from "../api/client.js";
import type { UsdcNetworkName } from "../contract/assets.js";
import { CliError, PaymentError, UsageError } from "../errors.js";
import { formatUnits, parseAmount } from "./amounts.js";
import { type ChosenOffer, chooseOffer } from "./offer-policy.js";
import {
  type KnownAsset,
  type PaymentRequirement,
  readPaymentRequirements,
  type SignedAuthorization,
} from "./offers.js";
import { readBack, type Signer } from "./read-back.js";
import { type LedgerOptions, PaymentRecorder } from "./recorder.js";
import { paymentRequiredError, type RequestEstimate, refusalReason } from "./refusal.js";

// Paying per request with x402 (spec §5): which requirement to accept, the caps that cannot be
// talked past, and the books. It joins the HTTP client as its 402 hook. Signing lives in sign.ts,
// loaded only when a payment is made.

export interface PaymentOptions {
  /** The wallet's private key (hex); never stored, never printed. */
  walletKey: string | undefined;
  /** Caps in the asset's units, as typed ("0.01"). */
  maxPayment: string;
  maxSpend: string;
  dryRun: boolean;
  /** Pay only on this network (--pay-network, config pay-network); else the first offer accepted. */
  network?: UsdcNetworkName;
  /** Where every payment signed is recorded before it is sent, and the daily cap counted there. */
  ledger?: LedgerOptions;
  /** The only payees an offer may name (--pay-to, config pay-to); any when unset. */
  payTo?: string[];
}

export { MAX_PAYMENT_VALIDITY_SECONDS } from "./read-back.js";
export type { RequestEstimate } from "./refusal.js";

/**
 * A payment never travels over plain http, except to this machine: a path attacker could rewrite
 * the offer (payTo, amount) and take the signed authorization. Checked before any request.
 */
export function assertPaymentMayTravel(url: URL, isLoopback: (host: string) => boolean): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw new UsageError(
    `refusing to pay over ${url.protocol.replace(":", "")} to ${url.hostname}: the offer could be rewritten on the way; use an https base URL`,
  );
}

export interface PaymentTally {
  signed: number;
  signedAmount: bigint;
  accepted: number;
  acceptedAmount: bigint;
  asset: KnownAsset | undefined;
}

export class PaymentSession implements PaymentHook {
  /**
   * Held against --max-spend: every value signed, plus those being signed right now. Reserved
   * before signing, so concurrent pages cannot together pass the cap; never given back once a
   * signed payment may have left.
   */
  private reserved = 0n;
  private signing = 0;
  /** Payments signed (the wallet's risk, whatever became of them), and those the server accepted. */
  private signed = 0;
  private signedAmount = 0n;
  private accepted = 0;
  private acceptedAmount = 0n;
  /** Payments sent and not yet answered: their value, and their nonce (their name in the ledger). */
  private readonly inFlight = new Map<Record<string, string>, { value: bigint; nonce: string }>();
  private readonly recorder: PaymentRecorder | undefined;
  private asset: KnownAsset | undefined;
  private signer: Promise<Signer> | undefined;
  private readonly settlements: string[] = [];
  private payer: string | undefined;
  /** Signed and sent with no answer read (the run stopped, the connection died): may yet be settled. */
  private unknown = 0n;
  /** The amount of the last payment signed: the price of the next page, as far as can be known. */
  private lastAmount: bigint | undefined;

  constructor(
    private readonly options: PaymentOptions,
    private readonly estimate: RequestEstimate,
    private readonly log: (line: string) => void,
    private readonly verbose: boolean,
  ) {
    this.recorder = options.ledger ? new PaymentRecorder(options.ledger, log) : undefined;
  }

  /** Chooses the requirement to pay, or says why none can be paid. Pure: no signing, no state. */
  choose(requirements: PaymentRequirement[]): ChosenOffer {
    return chooseOffer(requirements, this.options, {
      reserved: this.reserved,
      payment: this.signed + this.signing + 1,
    });
  }

  /**
   * Answers a 402: checks the caps, signs, reads the signed authorization back out of the header
   * (the amount, payee and window that count are the ones in it), and returns the headers to send
   * again with. Nothing is returned, so nothing is sent, unless the read-back matches what was checked.
   */
  async pay(res: ApiResponse, label: string | undefined): Promise<Record<string, string>> {
    if (this.options.dryRun) throw new PaymentError("a dry run signs nothing for sending (this is a bug)");
    const offer = this.offer(res);
    const { requirement, asset, amount } = offer;
    if (!this.options.walletKey) {
      throw new UsageError("--pay needs a wallet key: set TOKENINTEL_WALLET_KEY or pass --wallet-key-file");
    }
    this.recorder?.precheck(amount);
    // Reserved in the same turn as the check in choose(): concurrent pages cannot race past the cap.
    this.reserved += amount;
    this.signing++;
    let signed: { headers: Record<string, string>; auth: SignedAuthorization };
    try {
      if (this.verbose) {
        this.log(
          `tokenintel: paying ${formatUnits(amount.toString(), asset.decimals)} ${asset.symbol} on ${asset.networkName} to ${requirement.payTo} (asset ${requirement.asset}, x402 v${requirement.x402Version})${label ? ` for ${label}` : ""}`,
        );
      }
      signed = await this.sign(res, offer);
      // In the ledger before it can leave: a line that cannot be written (or the daily cap) stops it.
      this.recorder?.signed(res.url, label, requirement, asset, signed.auth);
    } catch (error) {
      this.reserved -= amount; // signed at most in memory: nothing left this process
      this.signing--;
      throw error;
    }
    this.signing--;
    this.signed++;
    this.signedAmount += signed.auth.value;
    this.lastAmount = signed.auth.value;
    this.asset = asset;
    this.inFlight.set(signed.headers, { value: signed.auth.value, nonce: signed.auth.nonce });
    return signed.headers;
  }

  /**
   * The dry run's answer to a 402: what would be paid per request and in all. With a wallet key
   * the amount is read back from an authorization signed in memory and thrown away, never sent.
   */
  /** The dry run's plan; `cached` requests are answered by the response cache, unpaid. */
  async plan(res: ApiResponse, cached = 0): Promise<string> {
    const offer = this.offer(res);
    if (!this.options.walletKey)
      return this.describePlan(offer.amount, offer.asset, offer.requirement, false, cached);
    const { auth } = await this.sign(res, offer);
    return this.describePlan(auth.value, offer.asset, offer.requirement, true, cached);
  }

  /** How many requests the command needs, when known before the first answer. */
  get requestsNeeded(): { requests: number | undefined; exact: boolean } {
    return this.estimate;
  }

  /** The error a 402 ends in: the price and the ways out, or the server refusing the payment sent. */
  async refusal(res: ApiResponse, paid: boolean, payment?: Record<string, string>): Promise<CliError> {
    const sent = payment && this.inFlight.get(payment);
    if (sent) {
      this.inFlight.delete(payment);
      this.recorder?.outcome(sent.nonce, "refused", { reason: refusalReason(res) });
    }
    return paymentRequiredError(res, paid, this.estimate);
  }

  private offer(res: ApiResponse): ReturnType<PaymentSession["choose"]> {
    const header = res.headers["payment-required"];
    return this.choose(readPaymentRequirements(res.body, typeof header === "string" ? header : undefined));
  }

  /** Signs the chosen offer and reads the value back; nothing here sends anything. */
  private async sign(
    res: ApiResponse,
    { requirement, asset, amount, validitySeconds }: ReturnType<PaymentSession["choose"]>,
  ): Promise<{ headers: Record<string, string>; auth: SignedAuthorization }> {
    try {
      this.signer ??= import("./sign.js").then((m) =>
        m.createSigner(this.options.walletKey!, this.options.maxPayment),
      );
      const signer = await this.signer;
      let headers: Record<string, string>;
      try {
        headers = await signer.sign(res, requirement, validitySeconds);
      } catch (error) {
        throw new PaymentError(`could not sign the payment: ${(error as Error).message}`);
      }
      const auth = await readBack(signer, headers, requirement, asset, amount);
      this.payer = signer.address;
      return { headers, auth };
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new PaymentError(`could not sign the payment: ${(error as Error).message}`);
    }
  }

  /** What the session has signed and what the server accepted, so far (amounts in the asset's units). */
  tally(): PaymentTally {
    return {
      signed: this.signed,
      signedAmount: this.signedAmount,
      accepted: this.accepted,
      acceptedAmount: this.acceptedAmount,
      asset: this.asset,
    };
  }

  /**
   * Why `more` payments at the last price would pass --max-spend, or undefined when they fit (or
   * nothing was paid yet to price them): asked before a walk that must read every page.
   */
  refusesMore(more: number): string | undefined {
    const asset = this.asset;
    if (this.lastAmount === undefined || !asset || more <= 0) return undefined;
    const maxSpend = parseAmount("--max-spend", this.options.maxSpend, asset.decimals);
    const total = this.reserved + this.lastAmount * BigInt(more);
    if (total <= maxSpend) return undefined;
    const units = (n: bigint) => `${formatUnits(n.toString(), asset.decimals)} ${asset.symbol}`;
    return `this walk reads every page: ${more} more paid request${more === 1 ? "" : "s"} of ${units(this.lastAmount)} would bring the total to ${units(total)}, over --max-spend ${this.options.maxSpend}`;
  }

  /** Requests paid for and answered so far: what they brought is the user's. */
  get paidRequests(): number {
    return this.accepted;
  }

  /** A paid request was answered: the payment counts, with its settlement reference if sent. */
  async settled(res: ApiResponse, headers: Record<string, string>): Promise<void> {
    const sent = this.inFlight.get(headers);
    if (sent === undefined) return;
    this.inFlight.delete(headers);
    this.accepted++;
    this.acceptedAmount += sent.value;
    const signer = await this.signer;
    const settlement = signer?.settlement(res);
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
    while (this.inFlight.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * The run is ending: payments sent whose answer never came (the connection died after sending,
   * the run stopped first) are recorded as unknown: they may yet be cashed until they expire.
   */
  finish(): void {
    for (const { nonce, value } of this.inFlight.values()) {
      this.unknown += value;
      this.recorder?.outcome(nonce, "unknown", { reason: "no answer to the paid request was read" });
    }
    this.inFlight.clear();
  }

  private describePlan(
    amount: bigint,
    asset: KnownAsset,
    req: PaymentRequirement,
    readBack: boolean,
    cached = 0,
  ): string {
    const { exact } = this.estimate;
    const requests = this.estimate.requests === undefined ? undefined : this.estimate.requests - cached;
    const price = `${formatUnits(amount.toString(), asset.decimals)} ${asset.symbol} on ${asset.networkName}`;
    const total =
      requests === undefined
        ? "the number of requests is not known before the first page (one payment per page)"
        : requests <= 0
          ? "none needed unless the server repeats records (one payment per page)"
          : `${exact ? "" : "at least "}${requests} request${requests === 1 ? "" : "s"}, ${exact ? "" : "at least "}${formatUnits((amount * BigInt(requests)).toString(), asset.decimals)} ${asset.symbol} in total`;
    const how = readBack ? "; amount read back from an authorization signed in memory and discarded" : "";
    const cap = this.recorder?.plan(amount);
    const ledger = cap ? `; ${cap}` : "";
    return `dry run: would pay ${price} per request to ${req.payTo}; ${total}; caps: --max-payment ${this.options.maxPayment}, --max-spend ${this.options.maxSpend}${ledger}${how}`;
  }

  /**
   * One line for stderr after a paid command, or nothing when nothing was signed. Payments signed
   * but not accepted are counted apart, and in the total signed: that is what the wallet risked.
   */
  summary(): string | undefined {
    if (this.signed === 0 || !this.asset) return undefined;
    const asset = this.asset;
    const line = paymentSummary(this.accepted, this.acceptedAmount, asset, this.payer, this.settlements);
    const unaccepted = this.signed - this.accepted;
    if (unaccepted === 0) return line;
    const units = (n: bigint) => `${formatUnits(n.toString(), asset.decimals)} ${asset.symbol}`;
    // With no answer read, the server may still settle the payment until its authorization expires.
    const open =
      this.unknown > 0n
        ? `, ${units(this.unknown)} of it sent with no answer read: it may still be settled until it expires ('tokenintel payments' lists it as unknown)`
        : "";
    return `${line}; ${unaccepted} more signed but not accepted, ${units(this.signedAmount - this.acceptedAmount)}${open} (signed in all: ${units(this.signedAmount)}, the most this command can cost)`;
  }
}

export function paymentSummary(
  paid: number,
  spent: bigint,
  asset: KnownAsset,
  payer: string | undefined,
  settlements: string[],
): string {
  const short = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);
  const last = settlements[settlements.length - 1];
  const more = settlements.length > 1 ? ` (+${settlements.length - 1} more)` : "";
  return `tokenintel: paid ${paid} request${paid === 1 ? "" : "s"}, ${formatUnits(spent.toString(), asset.decimals)} ${asset.symbol} on ${asset.networkName}, from ${payer ? short(payer) : "?"}${last ? `; settlement ${last}${more}` : ""}`;
}
