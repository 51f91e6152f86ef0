import type { UsdcNetworkName } from "../contract/assets.js";
import type { DataOptions } from "./data.js";
import type { FaultOptions } from "./faults.js";

export type DirectoryStyle = "envelope" | "bare" | "paginated";
export type TaStyle = "documented" | "flat";
export type AskStyle = "envelope" | "bare";
export type PaginationKeys = "page-count" | "total-pages" | "none";
export type MarketStyle = "strings" | "numbers";
export type X402Version = 1 | 2;

export interface SandboxOptions extends DataOptions, FaultOptions {
  port?: number;
  host?: string;
  /** How the directory answers: `{success, data}` (the spec), a bare array, or with meta.pagination. */
  directoryStyle?: DirectoryStyle;
  x402Version?: X402Version;
  /** Price of every keyless request, in USDC atomic units; default: its path's registry price. */
  priceAtomic?: string;
  /** The one key the sandbox accepts (default: the demo key). */
  apiKey?: string;
  /** Where payments go: USDC on Base (default) or Base Sepolia. */
  x402Network?: UsdcNetworkName;
  /** Several offers, in this order (overrides x402Network): e.g. polygon then base, as the live service. */
  x402Networks?: UsdcNetworkName[];
  /** Names another EIP-712 domain in the requirements (to test that clients refuse it). */
  x402DomainName?: string;
  /** TA records as the provider documents them (token_id, indicators per interval; default) or flat. */
  taStyle?: TaStyle;
  /** Ask answers wrapped in {success, data} (the default) or bare, the two forms the docs give. */
  askStyle?: AskStyle;
  /** Listing pages carry {pageCount, total} (the default), {totalPages, totalRecords}, or none. */
  paginationKeys?: PaginationKeys;
  /** The pagination numbers as strings ("3" for 3). */
  paginationStrings?: boolean;
  /** Market numbers as decimal strings (the default) or JSON numbers with market_cap_usd (newer docs). */
  marketStyle?: MarketStyle;
  /** A quota on concurrent requests: beyond it, answer the throttle status (as a busy gateway does). */
  maxInFlight?: number;
}
