import { quoteInline } from "../terminal/sanitize.js";
import { formatUnits } from "./amounts.js";
import type { PaymentTotals } from "./books.js";
import type { KnownAsset, PaymentRequirement } from "./offers.js";
import type { RequestEstimate } from "./refusal.js";

// What the payment session says: the line before a payment (--verbose), the dry run's plan, the
// refusal of a walk that would pass --max-spend, and the summary after a paid command.

const units = (atomic: bigint, asset: KnownAsset) =>
  `${formatUnits(atomic.toString(), asset.decimals)} ${asset.symbol}`;

/** --verbose, before signing: what is paid, on which network, to whom, for which request. */
export function payingLine(
  amount: bigint,
  asset: KnownAsset,
  requirement: PaymentRequirement,
  label: string | undefined,
): string {
  return `tokenintel: paying ${formatUnits(amount.toString(), asset.decimals)} ${asset.symbol} on ${asset.networkName} to ${quoteInline(requirement.payTo)} (asset ${requirement.asset}, x402 v${requirement.x402Version})${label ? ` for ${label}` : ""}`;
}

export interface Plan {
  amount: bigint;
  asset: KnownAsset;
  requirement: PaymentRequirement;
  /** The amount was read back from an authorization signed in memory and discarded. */
  readBack: boolean;
  estimate: RequestEstimate;
  /** Requests the response cache answers, unpaid. */
  cached: number;
  maxPayment: string;
  maxSpend: string;
  /** The daily cap's room, when there is a cap (recorder.plan). */
  cap: string | undefined;
}

/** The dry run's line: the price per request, what the requests come to, the caps. */
export function describePlan(plan: Plan): string {
  const { amount, asset } = plan;
  const { exact } = plan.estimate;
  const requests = plan.estimate.requests === undefined ? undefined : plan.estimate.requests - plan.cached;
  const price = `${formatUnits(amount.toString(), asset.decimals)} ${asset.symbol} on ${asset.networkName}`;
  const total =
    requests === undefined
      ? "the number of requests is not known before the first page (one payment per page)"
      : requests <= 0
        ? "none needed unless the server repeats records (one payment per page)"
        : `${exact ? "" : "at least "}${requests} request${requests === 1 ? "" : "s"}, ${exact ? "" : "at least "}${formatUnits((amount * BigInt(requests)).toString(), asset.decimals)} ${asset.symbol} in total`;
  const how = plan.readBack ? "; amount read back from an authorization signed in memory and discarded" : "";
  const ledger = plan.cap ? `; ${plan.cap}` : "";
  return `dry run: would pay ${price} per request to ${quoteInline(plan.requirement.payTo)}; ${total}; caps: --max-payment ${plan.maxPayment}, --max-spend ${plan.maxSpend}${ledger}${how}`;
}

/** Why `more` payments of `each` would bring the total over --max-spend. */
export function overSpend(
  more: number,
  each: bigint,
  total: bigint,
  asset: KnownAsset,
  maxSpend: string,
): string {
  return `this walk reads every page: ${more} more paid request${more === 1 ? "" : "s"} of ${units(each, asset)} would bring the total to ${units(total, asset)}, over --max-spend ${maxSpend}`;
}

/** Why a command whose requests are known would pass --max-spend: all of them, or those still to pay. */
export function overCommand(
  requests: number,
  still: number,
  each: bigint,
  total: bigint,
  asset: KnownAsset,
  maxSpend: string,
): string {
  const all = still === requests ? "" : `, ${still} of them still to pay`;
  const nothing = still === requests ? "; nothing was paid" : "";
  return `this command needs ${requests} paid requests of ${units(each, asset)}${all}: ${units(total, asset)}, over --max-spend ${maxSpend}${nothing}`;
}

/**
 * One line for stderr after a paid command, or nothing when nothing was signed. Payments signed
 * but not accepted are counted apart, and in the total signed: that is what the wallet risked.
 */
export function sessionSummary(totals: PaymentTotals): string | undefined {
  if (totals.signed === 0 || !totals.asset) return undefined;
  const asset = totals.asset;
  const line = paymentSummary(
    totals.accepted,
    totals.acceptedAmount,
    asset,
    totals.payer,
    totals.settlements,
  );
  const unaccepted = totals.signed - totals.accepted;
  if (unaccepted === 0) return line;
  // With no answer read, the server may still settle the payment until its authorization expires.
  const open =
    totals.unknown > 0n
      ? `, ${units(totals.unknown, asset)} of it sent with no answer read: it may still be settled until it expires ('tokenintel payments' lists it as unknown)`
      : "";
  return `${line}; ${unaccepted} more signed but not accepted, ${units(totals.signedAmount - totals.acceptedAmount, asset)}${open} (signed in all: ${units(totals.signedAmount, asset)}, the most this command can cost)`;
}

export function paymentSummary(
  paid: number,
  spent: bigint,
  asset: KnownAsset,
  payer: string | undefined,
  settlements: readonly string[],
): string {
  const short = (address: string) =>
    address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
  const last = settlements[settlements.length - 1];
  const more = settlements.length > 1 ? ` (+${settlements.length - 1} more)` : "";
  return `tokenintel: paid ${paid} request${paid === 1 ? "" : "s"}, ${formatUnits(spent.toString(), asset.decimals)} ${asset.symbol} on ${asset.networkName}, from ${payer ? short(payer) : "?"}${last ? `; settlement ${last}${more}` : ""}`;
}
