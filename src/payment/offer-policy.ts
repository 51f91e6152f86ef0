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
 * settles on Polygon by default (live-notes); the others in the server's order. --pay-network (or
 * config pay-network) says otherwise.
 */
function polygonFirst(requirements: PaymentRequirement[]): PaymentRequirement[] {
  const onPolygon = (r: PaymentRequirement) => r.network === POLYGON.v1 || r.network === POLYGON.caip2;
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

/**
 * The offer to pay, or a PaymentError with every offer's reason. `spent.reserved`: what the session
 * holds against --max-spend; `spent.payment`: the number this payment would be.
 */
export function chooseOffer(
  requirements: PaymentRequirement[],
  options: Pick<PaymentOptions, "network" | "payTo" | "maxPayment" | "maxSpend">,
  spent: { reserved: bigint; payment: number },
): ChosenOffer {
  if (requirements.length === 0)
    throw new PaymentError("the server asked for a payment but sent no requirements tokenintel can read");
  const reasons: string[] = [];
  const only = options.network ? USDC_NETWORKS[options.network] : undefined;
  const allowed = options.payTo?.map((a) => a.toLowerCase());
  for (const req of polygonFirst(requirements)) {
    if (only && req.network !== only.v1 && req.network !== only.caip2) {
      reasons.push(
        `an offer on ${quoteInline(req.network)} is not on ${only.label} (--pay-network ${options.network})`,
      );
      continue;
    }
    if (allowed && !allowed.includes(req.payTo.toLowerCase())) {
      const payee = ADDRESS_TEXT.test(req.payTo) ? req.payTo : "an address that is not one";
      reasons.push(`the offer pays ${payee}, not a payee allowed by pay-to (${options.payTo!.join(", ")})`);
      continue;
    }
    const asset = knownAsset(req);
    if (req.scheme !== "exact") {
      reasons.push(`scheme '${quoteInline(req.scheme)}' is not supported (exact only)`);
      continue;
    }
    if (!asset) {
      reasons.push(
        `asset ${quoteInline(req.asset)} on ${quoteInline(req.network)} is not a known asset (${KNOWN_ASSETS_TEXT})`,
      );
      continue;
    }
    const domain = { name: req.extra?.name, version: req.extra?.version };
    if (domain.name !== asset.domain.name || domain.version !== asset.domain.version) {
      const named = (value: unknown) => (value === undefined ? "(none)" : quoteInline(String(value)));
      reasons.push(
        `the requirement names the EIP-712 domain '${named(domain.name)}' version '${named(domain.version)}' for ${asset.symbol} on ${asset.networkName}; expected '${asset.domain.name}' version '${asset.domain.version}'`,
      );
      continue;
    }
    if (req.x402Version !== 1 && req.x402Version !== 2) {
      reasons.push(`x402 version ${req.x402Version} is not supported (1 and 2 are)`);
      continue;
    }
    if (req.problem) {
      reasons.push(`the offer's amount is ambiguous: ${req.problem}`);
      continue;
    }
    const method = req.extra?.assetTransferMethod;
    if (method !== undefined && method !== TRANSFER_METHOD) {
      const named = typeof method === "string" && /^[\w-]{1,40}$/.test(method) ? `'${method}'` : "another";
      reasons.push(
        `the offer asks for the ${named} transfer method; tokenintel signs only EIP-3009 transferWithAuthorization`,
      );
      continue;
    }
    const asked = askedTimeout(req.raw.maxTimeoutSeconds);
    if (!(asked >= 1)) {
      reasons.push("the offer's maxTimeoutSeconds is not a number of seconds of 1 or more");
      continue;
    }
    const validitySeconds = Math.min(Math.floor(asked), MAX_PAYMENT_VALIDITY_SECONDS);
    const amount = BigInt(req.amount);
    const maxPayment = parseAmount("--max-payment", options.maxPayment, asset.decimals);
    const maxSpend = parseAmount("--max-spend", options.maxSpend, asset.decimals);
    const units = (n: bigint) => `${formatUnits(n.toString(), asset.decimals)} ${asset.symbol}`;
    if (amount > maxPayment) {
      reasons.push(
        `${units(amount)} per request is over --max-payment ${options.maxPayment} by ${units(amount - maxPayment)}`,
      );
      continue;
    }
    if (spent.reserved + amount > maxSpend) {
      reasons.push(
        `payment ${spent.payment} would bring the total to ${units(spent.reserved + amount)}, over --max-spend ${options.maxSpend} by ${units(spent.reserved + amount - maxSpend)}`,
      );
      continue;
    }
    return { requirement: req, asset, amount, validitySeconds };
  }
  throw new PaymentError(`refusing to pay: ${someReasons(reasons)}`);
}
