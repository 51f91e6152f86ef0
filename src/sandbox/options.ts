import type { UsdcNetworkName } from "../spec/assets.js";
import type { DataOptions } from "./data.js";
import type { FaultOptions } from "./faults.js";

export type DirectoryStyle = "envelope" | "bare" | "paginated";
export type X402Version = 1 | 2;

export interface SandboxOptions extends DataOptions, FaultOptions {
  port?: number;
  host?: string;
  /** How the directory answers: `{success, data}` (the spec), a bare array, or with meta.pagination. */
  directoryStyle?: DirectoryStyle;
  x402Version?: X402Version;
  /** Price per directory request without a key, in USDC atomic units (6 decimals). */
  priceAtomic?: string;
  /** The one key the sandbox accepts (default: the demo key). */
  apiKey?: string;
  /** Where payments go: USDC on Base (default) or Base Sepolia. */
  x402Network?: Extract<UsdcNetworkName, "base" | "base-sepolia">;
  /** Names another EIP-712 domain in the requirements (to test that clients refuse it). */
  x402DomainName?: string;
  /** A quota on concurrent requests: beyond it, answer the throttle status (as a busy gateway does). */
  maxInFlight?: number;
}
