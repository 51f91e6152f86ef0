import type { ListPrice } from "../api/client.js";
import { USDC_NETWORKS } from "../contract/assets.js";
import { PaymentError } from "../errors.js";
import { LosslessNumber } from "../json/exact.js";
import { quoteInline } from "../terminal/sanitize.js";
import { formatUnits, parseAmount } from "./amounts.js";
import { KNOWN_ASSETS_TEXT, type KnownAsset, knownAsset, type PaymentRequirement } from "./offers.js";
import { MAX_PAYMENT_VALIDITY_SECONDS } from "./read-back.js";
import type { PaymentOptions } from "./session.js";

// Which of a 402's offers may be paid, and why the others may not: the network asked for, the
// payees allowed, the asset and its EIP-712 domain, the x402 version and transfer method, the
// validity window, and the caps against what the session has already reserved. Pure: no signing,
// no state; the session (session.ts) keeps the books.

export interface ChosenOffer {
  requirement: PaymentRequirement;
  asset: KnownAsset;
  amount: bigint;
  /** The offer's maxTimeoutSeconds, capped at MAX_PAYMENT_VALIDITY_SECONDS. */
  validitySeconds: number;
}

/** The one way of moving the asset tokenintel signs for: EIP-3009 transferWithAuthorization. */
const TRANSFER_METHOD = "eip3009";

/** The validity window an offer asks for, in seconds: the cap when it names none, NaN when unreadable. */
function askedTimeout(value: unknown): number {
  if (value === undefined) return MAX_PAYMENT_VALIDITY_SECONDS;
  if (typeof value === "number" || typeof value === "string" || value instanceof LosslessNumber)
    return Number(value);
  return Number.NaN;
}

const ADDRESS_TEXT = /^0x[0-9a-fA-F]{40}$/;
const POLYGON = USDC_NETWORKS.polygon;

/**
 * The offers in the order they are tried: Polygon's first where several are made, as the provider
 * settles on Polygon by default (docs/api-notes.md); the others in the server's order. --pay-network (or
 * config pay-network) says otherwise.
 */
function polygonFirst(requirements: PaymentRequirement[]): PaymentRequirement[] {
  const onPolygon = (requirement: PaymentRequirement) =>
    requirement.network === POLYGON.v1 || requirement.network === POLYGON.caip2;
  return [...requirements.filter(onPolygon), ...requirements.filter((r) => !onPolygon(r))];
}

/** The most offers' reasons a refusal names: a server may send thousands of offers. */
const MAX_REASONS = 3;

/** The reasons, the first MAX_REASONS of them and how many more offers were refused. */
function someReasons(reasons: string[]): string {
  const more = reasons.length - MAX_REASONS;
  const shown = reasons.slice(0, MAX_REASONS).join("; ");
  return more > 0 ? `${shown}; and ${more} more offer${more === 1 ? "" : "s"} refused` : shown;
}

type PolicyOptions = Pick<
  PaymentOptions,
  "network" | "payTo" | "maxPayment" | "maxPaymentGiven" | "maxSpend"
>;

/**
 * The offer to pay, or a PaymentError with every offer's reason. `spent.reserved`: what the session
 * holds against --max-spend; `spent.payment`: the number this payment would be; `listPrice`: the
 * request's price in the registry, which an offer may pass only when --max-payment was given.
 */
export function chooseOffer(
  requirements: PaymentRequirement[],
  options: PolicyOptions,
  spent: { reserved: bigint; payment: number },
  listPrice?: ListPrice,
): ChosenOffer {
  if (requirements.length === 0)
    throw new PaymentError("the server asked for a payment but sent no requirements tokenintel can read");
  const reasons: string[] = [];
  for (const req of polygonFirst(requirements)) {
    const terms = termsOf(req, options);
    if (typeof terms === "string") {
      reasons.push(terms);
      continue;
    }
    const amount = BigInt(req.amount);
    const over =
      aboveList(amount, terms.asset, options, listPrice) ?? capReason(amount, terms.asset, options, spent);
    if (over) {
      reasons.push(over);
      continue;
    }
    return { requirement: req, asset: terms.asset, amount, validitySeconds: terms.validitySeconds };
  }
  throw new PaymentError(`refusing to pay: ${someReasons(reasons)}`);
}

/**
 * Whether an offer's terms can be signed, the amount aside: its network (--pay-network), payee
 * (pay-to), scheme, asset and EIP-712 domain, x402 version, transfer method and validity window.
 * The asset and window to sign with, or the reason it cannot be.
 */
function termsOf(
  req: PaymentRequirement,
  options: PolicyOptions,
): { asset: KnownAsset; validitySeconds: number } | string {
  const only = options.network ? USDC_NETWORKS[options.network] : undefined;
  if (only && req.network !== only.v1 && req.network !== only.caip2)
    return `an offer on ${quoteInline(req.network)} is not on ${only.label} (--pay-network ${options.network})`;
  const allowed = options.payTo?.map((address) => address.toLowerCase());
  if (allowed && !allowed.includes(req.payTo.toLowerCase())) {
    const payee = ADDRESS_TEXT.test(req.payTo) ? req.payTo : "an address that is not one";
    return `the offer pays ${payee}, not a payee allowed by pay-to (${options.payTo!.join(", ")})`;
  }
  const asset = knownAsset(req);
  if (req.scheme !== "exact") return `scheme '${quoteInline(req.scheme)}' is not supported (exact only)`;
  if (!asset)
    return `asset ${quoteInline(req.asset)} on ${quoteInline(req.network)} is not a known asset (${KNOWN_ASSETS_TEXT})`;
  const domain = { name: req.extra?.name, version: req.extra?.version };
  if (domain.name !== asset.domain.name || domain.version !== asset.domain.version) {
    const named = (value: unknown) => (value === undefined ? "(none)" : quoteInline(String(value)));
    return `the requirement names the EIP-712 domain '${named(domain.name)}' version '${named(domain.version)}' for ${asset.symbol} on ${asset.networkName}; expected '${asset.domain.name}' version '${asset.domain.version}'`;
  }
  if (req.x402Version !== 1 && req.x402Version !== 2)
    return `x402 version ${req.x402Version} is not supported (1 and 2 are)`;
  if (req.problem) return `the offer's amount is ambiguous: ${req.problem}`;
  const method = req.extra?.assetTransferMethod;
  if (method !== undefined && method !== TRANSFER_METHOD) {
    const named = typeof method === "string" && /^[\w-]{1,40}$/.test(method) ? `'${method}'` : "another";
    return `the offer asks for the ${named} transfer method; tokenintel signs only EIP-3009 transferWithAuthorization`;
  }
  const asked = askedTimeout(req.raw.maxTimeoutSeconds);
  if (!(asked >= 1)) return "the offer's maxTimeoutSeconds is not a number of seconds of 1 or more";
  return { asset, validitySeconds: Math.min(Math.floor(asked), MAX_PAYMENT_VALIDITY_SECONDS) };
}

/**
 * Why `amount` is more than the registry's price of the request, which is refused unless the user
 * said how much a request may cost (--max-payment, then checked as for any offer); undefined when it is not.
 */
function aboveList(
  amount: bigint,
  asset: KnownAsset,
  options: PolicyOptions,
  listPrice: ListPrice | undefined,
): string | undefined {
  if (!listPrice || options.maxPaymentGiven) return undefined;
  const list = parseAmount("the registry's price", listPrice.usdc, asset.decimals);
  if (amount <= list) return undefined;
  const asked = formatUnits(amount.toString(), asset.decimals);
  return `the offer asks ${asked} ${asset.symbol} per request, above the registry's price of ${listPrice.usdc} ${asset.symbol} for ${quoteInline(listPrice.of)} (--max-payment allows a higher price, if you mean to pay it)`;
}

/** Why `amount` passes --max-payment, or --max-spend with what is reserved; undefined when it fits. */
function capReason(
  amount: bigint,
  asset: KnownAsset,
  options: PolicyOptions,
  spent: { reserved: bigint; payment: number },
): string | undefined {
  const maxPayment = parseAmount("--max-payment", options.maxPayment, asset.decimals);
  const maxSpend = parseAmount("--max-spend", options.maxSpend, asset.decimals);
  const units = (atomic: bigint) => `${formatUnits(atomic.toString(), asset.decimals)} ${asset.symbol}`;
  if (amount > maxPayment)
    return `${units(amount)} per request is over --max-payment ${options.maxPayment} by ${units(amount - maxPayment)}`;
  if (spent.reserved + amount > maxSpend)
    return `payment ${spent.payment} would bring the total to ${units(spent.reserved + amount)}, over --max-spend ${options.maxSpend} by ${units(spent.reserved + amount - maxSpend)}`;
  return undefined;
}
