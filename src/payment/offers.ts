import { findDefaultAsset } from "@x402/evm";
import { USDC_DECIMALS, USDC_NETWORKS } from "../contract/assets.js";
import { quoteInline } from "../terminal/sanitize.js";
import { formatUnits } from "./amounts.js";

// Reading x402 payment requirements from a 402 answer, enough to tell the user what a request
// costs. Version 1 puts them in the JSON body; version 2 in a base64 PAYMENT-REQUIRED header.

export interface PaymentRequirement {
  x402Version: number;
  scheme: string;
  network: string;
  /** Atomic units of the asset, as a decimal integer string: the field this version signs. */
  amount: string;
  asset: string;
  payTo: string;
  extra?: { name?: string; version?: string } & Record<string, unknown>;
  raw: Record<string, unknown>;
  /** Why this offer must not be paid although it can be read (its amount fields disagree...). */
  problem?: string;
  /** The extensions the offer declares (x402 v2): a payment may echo them, nothing more. */
  extensions?: unknown;
}

export interface KnownAsset {
  symbol: string;
  decimals: number;
  networkName: string;
  /** EIP-712 domain of the token contract; a requirement naming another domain is refused. */
  domain: { name: string; version: string };
  /** The chain the token lives on (EIP-155), part of the domain a signature is checked against. */
  chainId: number;
}

/**
 * The allow-list: USDC on the networks of contract/assets.ts. Keys are `${network}:${lower-case asset
 * address}`, with networks in both their v1 names and CAIP-2 ids; anything else is refused. The
 * EIP-712 domain a signature is made under is the x402 EVM package's own default-asset entry where
 * it holds one, and contract/assets.ts's otherwise.
 */
export const KNOWN_ASSETS: Record<string, KnownAsset> = Object.fromEntries(
  Object.values(USDC_NETWORKS).flatMap((network) => {
    const listed = findDefaultAsset(network.asset, network.caip2 as `${string}:${string}`);
    const asset: KnownAsset = {
      symbol: "USDC",
      decimals: listed?.decimals ?? USDC_DECIMALS,
      networkName: network.label,
      domain: listed?.version ? { name: listed.name, version: listed.version } : network.domain,
      chainId: Number(network.caip2.split(":")[1]),
    };
    const address = network.asset.toLowerCase();
    return [
      [`${network.v1}:${address}`, asset],
      [`${network.caip2}:${address}`, asset],
    ];
  }),
);

/** How the allow-list reads in a message: "USDC on Base, Base Sepolia and Polygon". */
export const KNOWN_ASSETS_TEXT = `USDC on ${Object.values(USDC_NETWORKS)
  .map((network) => network.label)
  .join(", ")
  .replace(/, ([^,]*)$/, " and $1")}`;

export function knownAsset(req: Pick<PaymentRequirement, "network" | "asset">): KnownAsset | undefined {
  return KNOWN_ASSETS[`${req.network}:${req.asset.toLowerCase()}`];
}

/**
 * The amount field each x402 version signs: the reference signer puts `maxAmountRequired` (v1) or
 * `amount` (v2) into the authorization, so that field, and only that one, is the price.
 */
export function signedAmountField(version: number): "maxAmountRequired" | "amount" {
  return version === 1 ? "maxAmountRequired" : "amount";
}

const ATOMIC = /^\d{1,78}$/; // uint256 has at most 78 decimal digits

/** A field as it may be quoted in a message: digits only, never other text from the server. */
function quoteAmount(value: unknown): string {
  return typeof value === "string" && ATOMIC.test(value) ? value : "not a decimal string";
}

/** The JSON document inside a base64 PAYMENT-REQUIRED header (x402 v2), or undefined. */
export function decodePaymentRequired(header: string): unknown {
  try {
    return JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Reads the requirements of a 402 answer; an empty list when it carries none we can read. */
export function readPaymentRequirements(body: unknown, header: string | undefined): PaymentRequirement[] {
  const doc = (header ? decodePaymentRequired(header) : undefined) ?? body;
  if (!doc || typeof doc !== "object") return [];
  const { x402Version, accepts, extensions } = doc as {
    x402Version?: unknown;
    accepts?: unknown;
    extensions?: unknown;
  };
  if (!Array.isArray(accepts)) return [];
  const version = typeof x402Version === "number" ? x402Version : header ? 2 : 1;
  const signedField = signedAmountField(version);
  const otherField = signedField === "amount" ? "maxAmountRequired" : "amount";
  const out: PaymentRequirement[] = [];
  for (const item of accepts) {
    if (!item || typeof item !== "object") continue;
    const r = item as Record<string, unknown>;
    if (typeof r.network !== "string" || typeof r.asset !== "string") continue;
    const signed = r[signedField];
    const other = r[otherField];
    const signedOk = typeof signed === "string" && ATOMIC.test(signed);
    const otherOk = typeof other === "string" && ATOMIC.test(other);
    let amount: string;
    let problem: string | undefined;
    if (signedOk) {
      amount = signed;
      if (other !== undefined && !(otherOk && BigInt(other) === BigInt(signed))) {
        problem = `its ${otherField} (${quoteAmount(other)}) disagrees with the ${signedField} (${signed}) that x402 v${version} signs`;
      }
    } else if (otherOk) {
      // Shown in the price of an unpaid 402, never signed.
      amount = other;
      problem = `its ${signedField}, the amount x402 v${version} signs, is ${signed === undefined ? "missing" : quoteAmount(signed)}`;
    } else {
      continue;
    }
    out.push({
      x402Version: version,
      scheme: String(r.scheme ?? ""),
      network: r.network,
      amount,
      asset: r.asset,
      payTo: String(r.payTo ?? ""),
      extra: (r.extra as PaymentRequirement["extra"]) ?? undefined,
      raw: r,
      ...(problem ? { problem } : {}),
      ...(extensions !== undefined ? { extensions } : {}),
    });
  }
  return out;
}

/** What a payment header carries: the EIP-3009 authorization exactly as it will be sent. */
export interface SignedAuthorization {
  from: string;
  to: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
  signature: string;
}

const PAYMENT_HEADER: Record<number, string> = { 1: "x-payment", 2: "payment-signature" };
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
/** r, s and v of an externally owned account's signature; nothing longer (no wrapped contract calls). */
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

function object(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function onlyKeys(
  fields: Record<string, unknown>,
  allowed: string[],
  required: string[],
  what: string,
): void {
  const extra = Object.keys(fields).filter((key) => !allowed.includes(key));
  if (extra.length) throw new Error(`${what} carries ${extra.slice(0, 3).join(", ")}`);
  const missing = required.filter((key) => fields[key] === undefined);
  if (missing.length) throw new Error(`${what} lacks ${missing.join(", ")}`);
}

function atomic(value: unknown, what: string): bigint {
  if (typeof value !== "string" || !ATOMIC.test(value)) throw new Error(`${what} is not a decimal string`);
  return BigInt(value);
}

/**
 * Reads back the payment header about to be sent: it must hold one EIP-3009
 * transferWithAuthorization (from, to, value, validAfter, validBefore, nonce and a signature) for
 * the requirement chosen, and nothing else a wallet could be signing. Throws with the reason.
 */
export function readSignedPayment(
  headers: Record<string, string>,
  req: PaymentRequirement,
): SignedAuthorization {
  const names = Object.keys(headers);
  const expected = PAYMENT_HEADER[req.x402Version];
  if (names.length !== 1 || names[0]!.toLowerCase() !== expected) {
    throw new Error(`expected one ${expected ?? "payment"} header, got ${names.join(", ") || "none"}`);
  }
  const encoded = headers[names[0]!]!;
  if (!BASE64.test(encoded)) throw new Error("the header is not base64");
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  } catch {
    throw new Error("the header is not base64 JSON");
  }
  const d = object(doc, "the payment");
  if (d.x402Version !== req.x402Version) throw new Error(`the payment is not x402 v${req.x402Version}`);
  if (req.x402Version === 1) {
    onlyKeys(
      d,
      ["x402Version", "scheme", "network", "payload"],
      ["scheme", "network", "payload"],
      "the payment",
    );
    if (d.scheme !== "exact" || d.network !== req.network)
      throw new Error("the payment names another scheme or network");
  } else {
    onlyKeys(
      d,
      ["x402Version", "payload", "resource", "accepted", "extensions"],
      ["payload", "accepted"],
      "the payment",
    );
    const accepted = object(d.accepted, "the accepted requirement");
    if (
      accepted.scheme !== "exact" ||
      accepted.network !== req.network ||
      accepted.asset !== req.asset ||
      accepted.payTo !== req.payTo
    ) {
      throw new Error("the accepted requirement is not the one chosen");
    }
    // The offer's own extensions may be echoed; anything added to them could be another signature.
    if (JSON.stringify(d.extensions) !== JSON.stringify(req.extensions))
      throw new Error("the payment carries extensions the offer did not declare");
  }
  const payload = object(d.payload, "the payload");
  onlyKeys(payload, ["authorization", "signature"], ["authorization", "signature"], "the payload");
  const a = object(payload.authorization, "the authorization");
  const fields = ["from", "to", "value", "validAfter", "validBefore", "nonce"];
  onlyKeys(a, fields, fields, "the authorization");
  if (typeof a.from !== "string" || !ADDRESS.test(a.from)) throw new Error("its from is not an address");
  if (typeof a.to !== "string" || !ADDRESS.test(a.to)) throw new Error("its to is not an address");
  if (typeof a.nonce !== "string" || !BYTES32.test(a.nonce)) throw new Error("its nonce is not 32 bytes");
  if (typeof payload.signature !== "string" || !SIGNATURE.test(payload.signature))
    throw new Error("its signature is not a 65-byte signature");
  return {
    from: a.from,
    to: a.to,
    value: atomic(a.value, "its value"),
    validAfter: atomic(a.validAfter, "its validAfter"),
    validBefore: atomic(a.validBefore, "its validBefore"),
    nonce: a.nonce,
    signature: payload.signature,
  };
}

/** "0.005 USDC on Base"; unknown assets are named by their address. */
export function describePrice(req: PaymentRequirement): string {
  const asset = knownAsset(req);
  if (asset) return `${formatUnits(req.amount, asset.decimals)} ${asset.symbol} on ${asset.networkName}`;
  return `${req.amount} atomic units of ${quoteInline(req.asset)} on ${quoteInline(req.network)}`;
}
