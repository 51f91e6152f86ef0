// Reading x402 payment requirements from a 402 answer, enough to tell the user what a request
// costs. Version 1 puts them in the JSON body; version 2 in a base64 PAYMENT-REQUIRED header.

export interface PaymentRequirement {
  x402Version: number;
  scheme: string;
  network: string;
  /** Atomic units of the asset, as a decimal integer string. */
  amount: string;
  asset: string;
  payTo: string;
  extra?: { name?: string; version?: string } & Record<string, unknown>;
  raw: Record<string, unknown>;
}

export interface KnownAsset {
  symbol: string;
  decimals: number;
  networkName: string;
  /** EIP-712 domain of the token contract; a requirement naming another domain is refused. */
  domain: { name: string; version: string };
}

// Keys are `${network}:${lower-case asset address}`; networks in both v1 names and CAIP-2 ids.
const USDC_BASE = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const USDC_BASE_SEPOLIA = "0x036cbd53842c5426634e7929541ec2318f3dcf7e";
export const KNOWN_ASSETS: Record<string, KnownAsset> = {
  [`base:${USDC_BASE}`]: usdc("Base", "USD Coin"),
  [`eip155:8453:${USDC_BASE}`]: usdc("Base", "USD Coin"),
  [`base-sepolia:${USDC_BASE_SEPOLIA}`]: usdc("Base Sepolia", "USDC"),
  [`eip155:84532:${USDC_BASE_SEPOLIA}`]: usdc("Base Sepolia", "USDC"),
};

function usdc(networkName: string, domainName: string): KnownAsset {
  return { symbol: "USDC", decimals: 6, networkName, domain: { name: domainName, version: "2" } };
}

export function knownAsset(req: Pick<PaymentRequirement, "network" | "asset">): KnownAsset | undefined {
  return KNOWN_ASSETS[`${req.network}:${req.asset.toLowerCase()}`];
}

/** Reads the requirements of a 402 answer; an empty list when it carries none we can read. */
export function readPaymentRequirements(body: unknown, header: string | undefined): PaymentRequirement[] {
  let doc: unknown = body;
  if (header) {
    try {
      doc = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    } catch {
      doc = body;
    }
  }
  if (!doc || typeof doc !== "object") return [];
  const { x402Version, accepts } = doc as { x402Version?: unknown; accepts?: unknown };
  if (!Array.isArray(accepts)) return [];
  const version = typeof x402Version === "number" ? x402Version : header ? 2 : 1;
  const out: PaymentRequirement[] = [];
  for (const item of accepts) {
    if (!item || typeof item !== "object") continue;
    const r = item as Record<string, unknown>;
    const amount = String(r.amount ?? r.maxAmountRequired ?? "");
    if (!/^\d+$/.test(amount) || typeof r.network !== "string" || typeof r.asset !== "string") continue;
    out.push({
      x402Version: version,
      scheme: String(r.scheme ?? ""),
      network: r.network,
      amount,
      asset: r.asset,
      payTo: String(r.payTo ?? ""),
      extra: (r.extra as PaymentRequirement["extra"]) ?? undefined,
      raw: r,
    });
  }
  return out;
}

/** Atomic units to a decimal string: ("5000", 6) → "0.005". Exact, no floats. */
export function formatUnits(atomic: string, decimals: number): string {
  const digits = atomic.replace(/^0+/, "") || "0";
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals);
  const frac = padded.slice(padded.length - decimals).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

/** "0.005 USDC on Base"; unknown assets are named by their address. */
export function describePrice(req: PaymentRequirement): string {
  const asset = knownAsset(req);
  if (asset) return `${formatUnits(req.amount, asset.decimals)} ${asset.symbol} on ${asset.networkName}`;
  return `${req.amount} atomic units of ${req.asset} on ${req.network}`;
}
