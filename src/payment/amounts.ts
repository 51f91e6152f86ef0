import { UsageError } from "../errors.js";

// Amounts of an asset, exact: typed caps ("0.01") to atomic units and back, never through a float.

export const DEFAULT_MAX_PAYMENT = "0.01";
export const DEFAULT_MAX_SPEND = "0.10";

/** "0.01" in an asset of 6 decimals → 10000n. Exact; rejects more decimals than the asset has. */
export function parseAmount(flag: string, text: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag}: expected an amount such as 0.01, got ${JSON.stringify(text)}`);
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > decimals) throw new UsageError(`${flag}: ${text} has more than ${decimals} decimals`);
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, "0") || "0");
}

/** Checks a cap's form before any request (6 decimals: USDC, the only asset accepted). */
export function checkAmountFlag(flag: string, text: string): string {
  parseAmount(flag, text, 6);
  return text.trim();
}

/** Atomic units to a decimal string: ("5000", 6) → "0.005". Exact, no floats. */
export function formatUnits(atomic: string, decimals: number): string {
  const digits = atomic.replace(/^0+/, "") || "0";
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals);
  const frac = padded.slice(padded.length - decimals).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}
