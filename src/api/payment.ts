import { CliError, ExitCode, PaymentError, UsageError } from "../errors.js";
import type { ApiResponse } from "./client.js";
import {
  describePrice,
  formatUnits,
  type KnownAsset,
  knownAsset,
  type PaymentRequirement,
  readPaymentRequirements,
} from "./x402.js";

// Paying per request with x402 (spec §5): which requirement to accept, the caps that cannot be
// talked past, and the books. Signing lives in x402-sign.ts, loaded only when a payment is made.

export interface PaymentOptions {
  /** The wallet's private key (hex); never stored, never printed. */
  walletKey: string | undefined;
  /** Caps in the asset's units, as typed ("0.01"). */
  maxPayment: string;
  maxSpend: string;
  dryRun: boolean;
}

/** What the command knows of how many requests it will make. */
export interface RequestEstimate {
  requests: number | undefined;
  /** False when `requests` is a lower bound. */
  exact: boolean;
}

export const DEFAULT_MAX_PAYMENT = "0.01";
export const DEFAULT_MAX_SPEND = "0.10";

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

/** "0.01" in an asset of 6 decimals → 10000n. Exact; rejects more decimals than the asset has. */
export function parseAmount(flag: string, text: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag}: expected an amount such as 0.01, got ${JSON.stringify(text)}`);
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > decimals) throw new UsageError(`${flag}: ${text} has more than ${decimals} decimals`);
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, "0") || "0");
}

/** Checks a cap's form before any request (6 decimals: USDC, the only asset accepted so far). */
export function checkAmountFlag(flag: string, text: string): string {
  parseAmount(flag, text, 6);
  return text.trim();
}

/** The dry run ends the command here: the plan is the output. */
export class DryRunComplete extends CliError {
  constructor(message: string) {
    super(message, ExitCode.ok);
  }
}

interface Signer {
  address: string;
  sign(res: ApiResponse, requirement: PaymentRequirement): Promise<Record<string, string>>;
  settlement(res: ApiResponse): string | undefined;
}

export class PaymentSession {
  /** Payments signed (and reserved against --max-spend), and those the server accepted. */
  private signed = 0;
  private spent = 0n;
  private accepted = 0;
  private acceptedAmount = 0n;
  private readonly inFlight = new Map<Record<string, string>, bigint>();
  private asset: KnownAsset | undefined;
  private signer: Promise<Signer> | undefined;
  private readonly settlements: string[] = [];
  private payer: string | undefined;

  constructor(
    private readonly options: PaymentOptions,
    private readonly estimate: RequestEstimate,
    private readonly log: (line: string) => void,
    private readonly verbose: boolean,
  ) {}

  /** Chooses the requirement to pay, or says why none can be paid. Pure: no signing, no state. */
  choose(requirements: PaymentRequirement[]): {
    requirement: PaymentRequirement;
    asset: KnownAsset;
    amount: bigint;
  } {
    if (requirements.length === 0)
      throw new PaymentError("the server asked for a payment but sent no requirements tokenintel can read");
    const reasons: string[] = [];
    for (const req of requirements) {
      const asset = knownAsset(req);
      if (req.scheme !== "exact") {
        reasons.push(`scheme '${req.scheme}' is not supported (exact only)`);
        continue;
      }
      if (!asset) {
        reasons.push(
          `asset ${req.asset} on ${req.network} is not a known asset (USDC on Base and Base Sepolia)`,
        );
        continue;
      }
      const domain = { name: req.extra?.name, version: req.extra?.version };
      if (domain.name !== asset.domain.name || domain.version !== asset.domain.version) {
        reasons.push(
          `the requirement names the EIP-712 domain '${domain.name ?? "(none)"}' version '${domain.version ?? "(none)"}' for ${asset.symbol} on ${asset.networkName}; expected '${asset.domain.name}' version '${asset.domain.version}'`,
        );
        continue;
      }
      const amount = BigInt(req.amount);
      const maxPayment = parseAmount("--max-payment", this.options.maxPayment, asset.decimals);
      const maxSpend = parseAmount("--max-spend", this.options.maxSpend, asset.decimals);
      const units = (n: bigint) => `${formatUnits(n.toString(), asset.decimals)} ${asset.symbol}`;
      if (amount > maxPayment) {
        reasons.push(
          `${units(amount)} per request is over --max-payment ${this.options.maxPayment} by ${units(amount - maxPayment)}`,
        );
        continue;
      }
      if (this.spent + amount > maxSpend) {
        reasons.push(
          `payment ${this.signed + 1} would bring the total to ${units(this.spent + amount)}, over --max-spend ${this.options.maxSpend} by ${units(this.spent + amount - maxSpend)}`,
        );
        continue;
      }
      return { requirement: req, asset, amount };
    }
    throw new PaymentError(`refusing to pay: ${reasons.join("; ")}`);
  }

  /** Answers a 402: checks the caps, signs, and returns the headers to send again with. */
  async pay(res: ApiResponse, label: string | undefined): Promise<Record<string, string>> {
    const header = res.headers["payment-required"];
    const requirements = readPaymentRequirements(res.body, typeof header === "string" ? header : undefined);
    const { requirement, asset, amount } = this.choose(requirements);
    const price = describePrice(requirement);
    if (this.options.dryRun) throw new DryRunComplete(this.plan(price, amount, asset, requirement));
    if (!this.options.walletKey) {
      throw new UsageError("--pay needs a wallet key: set TOKENINTEL_WALLET_KEY or pass --wallet-key-file");
    }
    // Reserve before signing, so concurrent pages cannot together pass --max-spend.
    this.spent += amount;
    this.asset = asset;
    if (this.verbose) {
      this.log(
        `tokenintel: paying ${price} to ${requirement.payTo} (asset ${requirement.asset}, x402 v${requirement.x402Version})${label ? ` for ${label}` : ""}`,
      );
    }
    this.signer ??= import("./x402-sign.js").then((m) =>
      m.createSigner(this.options.walletKey!, this.options.maxPayment),
    );
    const signer = await this.signer;
    this.payer = signer.address;
    try {
      const headers = await signer.sign(res, requirement);
      this.signed++;
      this.inFlight.set(headers, amount);
      return headers;
    } catch (error) {
      this.spent -= amount;
      throw new PaymentError(`could not sign the payment: ${(error as Error).message}`);
    }
  }

  /** A paid request was answered: the payment counts, with its settlement reference if sent. */
  async settled(res: ApiResponse, headers: Record<string, string>): Promise<void> {
    this.accepted++;
    this.acceptedAmount += this.inFlight.get(headers) ?? 0n;
    this.inFlight.delete(headers);
    const signer = await this.signer;
    const reference = signer?.settlement(res);
    if (reference) this.settlements.push(reference);
  }

  private plan(price: string, amount: bigint, asset: KnownAsset, req: PaymentRequirement): string {
    const { requests, exact } = this.estimate;
    const total =
      requests === undefined
        ? "the number of requests is not known before the first page (one payment per page)"
        : `${exact ? "" : "at least "}${requests} request${requests === 1 ? "" : "s"}, ${exact ? "" : "at least "}${formatUnits((amount * BigInt(requests)).toString(), asset.decimals)} ${asset.symbol} in total`;
    return `dry run: would pay ${price} per request to ${req.payTo}; ${total}; caps: --max-payment ${this.options.maxPayment}, --max-spend ${this.options.maxSpend}`;
  }

  /** One line for stderr after a paid command, or nothing when nothing was paid. */
  summary(): string | undefined {
    if (this.signed === 0 || !this.asset) return undefined;
    const line = paymentSummary(this.accepted, this.acceptedAmount, this.asset, this.payer, this.settlements);
    const unaccepted = this.signed - this.accepted;
    return unaccepted > 0 ? `${line} (${unaccepted} more signed but not accepted)` : line;
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
