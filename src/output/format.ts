import { LosslessNumber } from "../json/exact.js";
import { numberToPlain, toPlainDecimal } from "../numbers/decimal.js";
import { sanitizeInline } from "./sanitize.js";

// Cell formatting for tables: decimal strings are formatted from their digits, never through a
// float that would print 0.00 or 1e-7.

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;
/** Compact amounts and percentages with a longer integer part are shown as 1.5e+400. */
export const MAX_INTEGER_DIGITS = 24;

function asDecimalText(value: unknown): string | undefined {
  if (typeof value === "string") return toPlainDecimal(value.trim());
  if (value instanceof LosslessNumber) return toPlainDecimal(value.raw);
  if (typeof value === "number" && Number.isFinite(value)) return numberToPlain(value);
  return undefined;
}

/** An integer part too long to show in digits, in exponent form: 1.5e+400 (2 decimals at most). */
function scientific(sign: string, int: string, frac: string): string {
  let exponent = int.length - 1;
  let mantissa = roundDecimal(int[0]!, int.slice(1) + frac, 2);
  if (mantissa.startsWith("10")) {
    mantissa = `1.${mantissa.slice(3)}`;
    exponent++;
  }
  return `${sign}${trimZeros(mantissa)}e+${exponent}`;
}

/** Splits plain decimal text into sign, integer part without leading zeros, fraction. */
function decimalParts(text: string): [string, string, string] {
  const [, sign = "", int = "0", frac = ""] = DECIMAL.exec(text) ?? [];
  return [sign, int.replace(/^0+(?=\d)/, ""), frac];
}

/** Adds thousands separators to an integer string. */
function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A price with significant digits: 1234.5 → "1,234.50", 0.0000001234 → "0.0₆1234" (the subscript
 * counts the zeros after the point, as trading screens do), never 0.00 and never exponent form.
 */
export function formatPrice(value: unknown): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const [sign, intPart, frac] = decimalParts(text);
  // Past 24 digits a price is written as the market cap column writes it (1e+400), never in full.
  if (intPart.length > MAX_INTEGER_DIGITS) return `${sign}${scientific("", intPart, frac)}`;
  if (intPart !== "0") {
    const rounded = roundDecimal(intPart, frac, intPart.length >= 4 ? 2 : 4);
    const [i, f = ""] = rounded.split(".") as [string, string?];
    const shown = f.replace(/0+$/, "").padEnd(2, "0");
    return `${sign}${group(i)}.${shown}`;
  }
  const zeros = /^0*/.exec(frac)![0].length;
  if (zeros === frac.length) return "0";
  const significant = frac.slice(zeros, zeros + 4).replace(/0+$/, "");
  if (zeros >= 4) return `${sign}0.0${subscript(zeros)}${significant}`;
  return `${sign}0.${"0".repeat(zeros)}${significant}`;
}

function roundDecimal(int: string, frac: string, decimals: number): string {
  const digits = (frac + "0".repeat(decimals + 1)).slice(0, decimals + 1);
  let kept = BigInt(int + digits.slice(0, decimals));
  if (Number(digits[decimals]) >= 5) kept += 1n;
  const s = kept.toString().padStart(decimals + 1, "0");
  return decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}` : s;
}

function subscript(n: number): string {
  return String(n).replace(/\d/g, (d) => "₀₁₂₃₄₅₆₇₈₉"[Number(d)]!);
}

/** Units by the number of digits they stand for. */
const UNITS: Array<[number, string]> = [
  [12, "T"],
  [9, "B"],
  [6, "M"],
  [3, "K"],
];

/** Large amounts compact: 1234567 → "1.23M". Prefix "$" for money. Written from the digits. */
export function formatCompact(value: unknown, prefix = ""): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const [rawSign, int, frac] = decimalParts(text);
  const zero = /^0*$/.test(int + frac);
  const sign = rawSign === "-" && !zero ? "-" : "";
  if (int.length > MAX_INTEGER_DIGITS) return `${sign}${prefix}${scientific("", int, frac)}`;
  for (const [size, unit] of UNITS) {
    if (int.length > size) {
      const shifted = roundDecimal(int.slice(0, int.length - size), int.slice(int.length - size) + frac, 2);
      return `${sign}${prefix}${trimZeros(shifted)}${unit}`;
    }
  }
  const small = trimZeros(roundDecimal(int, frac, int !== "0" || zero ? 2 : 4));
  // Below what four decimals show, the price format keeps the digits: $0.0₆15, never $0.
  if (small === "0" && !zero) return `${sign}${prefix}${formatPrice(`0.${frac}`)}`;
  return `${sign}${prefix}${small}`;
}

function trimZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** A signed percentage: "+1.23%", "-0.50%". */
export function formatPercent(value: unknown): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const [rawSign, int, frac] = decimalParts(text);
  if (int.length > MAX_INTEGER_DIGITS) return `${scientific(rawSign === "-" ? "-" : "+", int, frac)}%`;
  const fixed = roundDecimal(int, frac, 2);
  const sign = fixed === "0.00" ? "" : rawSign === "-" ? "-" : "+";
  return `${sign}${fixed}%`;
}

export function formatInteger(value: unknown): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const [sign, int, frac] = decimalParts(text);
  if (int.length > MAX_INTEGER_DIGITS) return `${sign}${scientific("", int, frac)}`;
  return sign + group(int);
}

/** Anything else: null as a dash, booleans as yes/no, strings sanitized. */
export function formatPlain(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value instanceof LosslessNumber) return value.raw;
  if (typeof value === "object") return sanitizeInline(JSON.stringify(value));
  return sanitizeInline(String(value));
}

/** A decimal string or number as a JS number, for tones and thresholds (never for display). */
export function toDecimalNumber(value: unknown): number | undefined {
  const text = asDecimalText(value);
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** "3m ago" on a terminal; the ISO time as sent when piped. */
export function formatTime(value: unknown, ctx: { relativeTime: boolean; now: number }): string {
  if (typeof value !== "string") return formatPlain(value);
  const t = Date.parse(value);
  if (!ctx.relativeTime || Number.isNaN(t)) return formatPlain(value);
  const seconds = Math.round((ctx.now - t) / 1000);
  const abs = Math.abs(seconds);
  const [n, unit] =
    abs < 60
      ? [abs, "s"]
      : abs < 3600
        ? [Math.floor(abs / 60), "m"]
        : abs < 86400
          ? [Math.floor(abs / 3600), "h"]
          : [Math.floor(abs / 86400), "d"];
  if (abs < 5) return "just now";
  return seconds >= 0 ? `${n}${unit} ago` : `in ${n}${unit}`;
}
