// The assets x402 payments may be made in: USDC on the networks the live service settles on
// (docs/api-notes.md, "Paying per request"), with the EIP-712 domain each token contract signs
// under. One table for the client's allow-list and the sandbox's offers.

export interface UsdcNetwork {
  /** The v1 network name and the v2 CAIP-2 id. */
  v1: string;
  caip2: string;
  /** How the network is named to people. */
  label: string;
  /** The USDC contract, checksummed. */
  asset: string;
  domain: { name: string; version: string };
}

export const USDC_NETWORKS = {
  base: {
    v1: "base",
    caip2: "eip155:8453",
    label: "Base",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    domain: { name: "USD Coin", version: "2" },
  },
  "base-sepolia": {
    v1: "base-sepolia",
    caip2: "eip155:84532",
    label: "Base Sepolia",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    domain: { name: "USDC", version: "2" },
  },
  polygon: {
    v1: "polygon",
    caip2: "eip155:137",
    label: "Polygon",
    asset: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    domain: { name: "USD Coin", version: "2" },
  },
} as const satisfies Record<string, UsdcNetwork>;

export type UsdcNetworkName = keyof typeof USDC_NETWORKS;
export const USDC_NETWORK_NAMES = Object.keys(USDC_NETWORKS) as UsdcNetworkName[];
export const USDC_DECIMALS = 6;
