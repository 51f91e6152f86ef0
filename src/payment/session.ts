import type { ApiResponse, ListPrice, PaymentHook } from "../api/client.js";
import { USDC_DECIMALS, type UsdcNetworkName } from "../contract/assets.js";
import { CliError, PaymentError, UsageError } from "../errors.js";
import { quoteInline } from "../terminal/sanitize.js";
import { formatUnits, parseAmount } from "./amounts.js";
import { PaymentBooks, type PaymentTally } from "./books.js";
import { type Holder, HolderSpending } from "./holders.js";
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
import { describePlan, overCommand, overSpend, payingLine, sessionSummary } from "./summary.js";

// Paying per request with x402: the session joins the HTTP client as its 402 hook, takes
// the offer the policy chooses (offer-policy.ts), signs it and reads it back. The books are in
// books.ts, what the session says (plan, summary) in summary.ts; signing itself lives in sign.ts,
// loaded only when a payment is made.

export interface PaymentOptions {
  /** The wallet's private key (hex); never stored, never printed. */
  walletKey: string | undefined;
  /** Caps in the asset's units, as typed ("0.01"). */
  maxPayment: string;
  /** --max-payment was given: it, not a request's registry price, bounds what an offer may ask. */
  maxPaymentGiven?: boolean;
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

export type { PaymentTally } from "./books.js";

/** The signer's refusal: its message quotes the offer, which may be megabytes long. */
function signingFailed(error: unknown): PaymentError {
  return new PaymentError(`could not sign the payment: ${quoteInline(String((error as Error)?.message))}`);
}

/** The 402 hook of a paying run: chooses the offer, signs it, and keeps the books (books.ts). */
export class PaymentSession implements PaymentHook {
  private readonly books: PaymentBooks;
  /** What each holder paying through the session has signed, against its own max-spend. */
  private readonly holders = new HolderSpending();
  private readonly recorder: PaymentRecorder | undefined;
  private signer: Promise<Signer> | undefined;

  constructor(
    private readonly options: PaymentOptions,
    private readonly estimate: RequestEstimate,
    private readonly log: (line: string) => void,
    private readonly verbose: boolean,
  ) {
    this.recorder = options.ledger ? new PaymentRecorder(options.ledger, log) : undefined;
    this.books = new PaymentBooks(this.recorder);
  }

  /**
   * The 402 hook of one run that pays through this session (each call of an MCP server started
   * with --pay): the same caps, books and ledger, its payments recorded under its own command line
   * (masked), and for its holder when it has one (holders.ts). The session itself when that is the
   * line it began with and there is no holder.
   */
  forRun(commandLine: string, holder?: Holder): PaymentHook {
    if (commandLine === this.options.ledger?.commandLine && !holder) return this;
    return {
      pay: (res, label, listPrice) => this.pay(res, label, listPrice, commandLine, holder),
      unanswered: (headers, why) => this.unanswered(headers, why),
      settled: (res, headers) => this.settled(res, headers),
      refusal: (res, paid, payment) => this.refusal(res, paid, payment),
    };
  }

  /** Chooses the requirement to pay, or says why none can be paid. Pure: no signing, no state. */
  choose(requirements: PaymentRequirement[], listPrice?: ListPrice): ChosenOffer {
    return chooseOffer(
      requirements,
      this.options,
      { reserved: this.books.reserved, payment: this.books.nextPayment },
      listPrice,
    );
  }

  /**
   * Answers a 402: checks the caps, signs, reads the signed authorization back out of the header
   * (the amount, payee and window that count are the ones in it), and returns the headers to send
   * again with. Nothing is returned, so nothing is sent, unless the read-back matches what was checked.
   * The ledger names `commandLine` (masked) as the command that paid, else the session's own, and
   * the holder it paid for, whose caps apply on top of the session's; an offer above `listPrice` is
   * refused unless --max-payment was given and allows it.
   */
  async pay(
    res: ApiResponse,
    label: string | undefined,
    listPrice?: ListPrice,
    commandLine?: string,
    holder?: Holder,
  ): Promise<Record<string, string>> {
    if (this.options.dryRun) throw new PaymentError("a dry run signs nothing for sending (this is a bug)");
    const offer = this.offer(res, listPrice);
    const { requirement, asset, amount } = offer;
    // The session's own run (not an MCP call paying through it): its known cost is checked whole.
    const overRun = commandLine === undefined ? this.overRun(amount, asset) : undefined;
    if (overRun) throw new PaymentError(`refusing to pay: ${overRun}`);
    if (!this.options.walletKey) {
      throw new UsageError("--pay needs a wallet key: set TOKENINTEL_WALLET_KEY or pass --wallet-key-file");
    }
    this.recorder?.precheck(amount, holder);
    // Reserved in the same turn as the checks in choose(): concurrent pages cannot race past a cap.
    this.holders.reserve(holder, amount);
    this.books.reserve(amount);
    let signed: { headers: Record<string, string>; auth: SignedAuthorization };
    try {
      if (this.verbose) this.log(payingLine(amount, asset, requirement, label));
      signed = await this.sign(res, offer);
      // In the ledger before it can leave: a line that cannot be written (or a daily cap) stops it.
      this.recorder?.signed(res.url, label, requirement, asset, signed.auth, commandLine, holder);
    } catch (error) {
      this.books.release(amount);
      this.holders.release(holder, amount);
      throw error;
    }
    this.books.sent(signed.headers, signed.auth, asset);
    return signed.headers;
  }

  /**
   * The dry run's answer to a 402: what would be paid per request and in all; `cached` requests
   * are answered by the response cache, unpaid. With a wallet key the amount is read back from an
   * authorization signed in memory and thrown away, never sent.
   */
  async plan(res: ApiResponse, cached = 0): Promise<string> {
    const offer = this.offer(res);
    const readBack = Boolean(this.options.walletKey);
    const amount = readBack ? (await this.sign(res, offer)).auth.value : offer.amount;
    return describePlan({
      amount,
      asset: offer.asset,
      requirement: offer.requirement,
      readBack,
      estimate: this.estimate,
      cached,
      maxPayment: this.options.maxPayment,
      maxSpend: this.options.maxSpend,
      cap: this.recorder?.plan(amount),
    });
  }

  /**
   * Why paying the requests the command still needs, when it knows exactly how many, would pass
   * --max-spend at this price: asked before each payment, so a run whose cost is known from its
   * flags (items × values of a list) is refused before anything is signed.
   */
  private overRun(amount: bigint, asset: KnownAsset): string | undefined {
    const { requests, exact } = this.estimate;
    if (!exact || requests === undefined) return undefined;
    const still = requests - (this.books.nextPayment - 1);
    if (still <= 1) return undefined;
    const maxSpend = parseAmount("--max-spend", this.options.maxSpend, asset.decimals);
    const total = this.books.reserved + amount * BigInt(still);
    if (total <= maxSpend) return undefined;
    return overCommand(requests, still, amount, total, asset, this.options.maxSpend);
  }

  /** How many requests the command needs, when known before the first answer. */
  get requestsNeeded(): { requests: number | undefined; exact: boolean } {
    return this.estimate;
  }

  /** The error a 402 ends in: the price and the ways out, or the server refusing the payment sent. */
  async refusal(res: ApiResponse, paid: boolean, payment?: Record<string, string>): Promise<CliError> {
    this.books.refused(payment, () => refusalReason(res));
    return paymentRequiredError(res, paid, this.estimate);
  }

  private offer(res: ApiResponse, listPrice?: ListPrice): ChosenOffer {
    const header = res.headers["payment-required"];
    const requirements = readPaymentRequirements(res.body, typeof header === "string" ? header : undefined);
    return this.choose(requirements, listPrice);
  }

  /** Signs the chosen offer and reads the value back; nothing here sends anything. */
  private async sign(
    res: ApiResponse,
    { requirement, asset, amount, validitySeconds }: ChosenOffer,
  ): Promise<{ headers: Record<string, string>; auth: SignedAuthorization }> {
    try {
      this.signer ??= import("./sign.js").then(({ createSigner }) =>
        createSigner(this.options.walletKey!, this.options.maxPayment),
      );
      const signer = await this.signer;
      let headers: Record<string, string>;
      try {
        headers = await signer.sign(res, requirement, validitySeconds);
      } catch (error) {
        throw signingFailed(error);
      }
      const auth = await readBack(signer, headers, requirement, asset, amount);
      this.books.signedBy(signer.address);
      return { headers, auth };
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw signingFailed(error);
    }
  }

  /** What the session has signed and what the server accepted, so far (amounts in the asset's units). */
  tally(): PaymentTally {
    return this.books.tally();
  }

  /**
   * Why `more` payments at the last price would pass --max-spend, or undefined when they fit (or
   * nothing was paid yet to price them): asked before a walk that must read every page.
   */
  refusesMore(more: number): string | undefined {
    const { lastAmount, lastAsset: asset } = this.books;
    if (lastAmount === undefined || !asset || more <= 0) return undefined;
    const maxSpend = parseAmount("--max-spend", this.options.maxSpend, asset.decimals);
    const total = this.books.reserved + lastAmount * BigInt(more);
    if (total <= maxSpend) return undefined;
    return overSpend(more, lastAmount, total, asset, this.options.maxSpend);
  }

  /**
   * Why one payment of `price` (USDC, as the registry writes it) would be refused, asked before any
   * request: over --max-payment, past --max-spend with what the run has reserved, or over the daily
   * cap counted from the ledger; undefined when every cap allows it. The words name what to raise.
   */
  refusesPrice(price: string): string | undefined {
    const { maxPayment, maxSpend } = this.options;
    const amount = parseAmount("price", price, USDC_DECIMALS);
    if (amount > parseAmount("--max-payment", maxPayment, USDC_DECIMALS))
      return `over --max-payment ${maxPayment} (raise it: --max-payment ${price})`;
    const total = this.books.reserved + amount;
    if (total > parseAmount("--max-spend", maxSpend, USDC_DECIMALS)) {
      const needed = formatUnits(total.toString(), USDC_DECIMALS);
      return `which would bring the run's total to ${needed} USDC, over --max-spend ${maxSpend} (raise it: --max-spend ${needed})`;
    }
    const capped = this.recorder?.capRefusal(amount);
    return capped && `which the daily cap does not allow (raise it, or wait): ${capped}`;
  }

  /** Requests paid for and answered so far: what they brought is the user's. */
  get paidRequests(): number {
    return this.books.paidRequests;
  }

  /** A paid request was answered: the payment counts, with its settlement reference if sent. */
  async settled(res: ApiResponse, headers: Record<string, string>): Promise<void> {
    await this.books.settled(headers, async () => (await this.signer)?.settlement(res));
  }

  /** An attempt of a paid request got no answer, and the same payment is sent again. */
  answerLost(headers: Record<string, string>): void {
    this.books.answerLost(headers);
  }

  /** A paid request ended with no answer read: its outcome is unknown, said now. */
  unanswered(headers: Record<string, string>, why: string): void {
    this.books.unanswered(headers, why);
  }

  /** Waits until every payment sent has its answer, or `ms` has passed. */
  drain(ms: number): Promise<void> {
    return this.books.drain(ms);
  }

  /**
   * The run is ending: payments sent whose answer never came (the connection died after sending,
   * the run stopped first) are recorded as unknown: they may yet be cashed until they expire.
   */
  finish(): void {
    this.books.finish();
  }

  /** One line for stderr after a paid command, or nothing when nothing was signed. */
  summary(): string | undefined {
    return sessionSummary(this.books.totals());
  }
}
