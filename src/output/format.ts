import { LosslessNumber } from "../api/json.js";
import { sanitizeInline } from "./sanitize.js";

// Cell formatting for tables: decimal strings are formatted from their digits, never through a
// float that would print 0.00 or 1e-7.

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

function asDecimalText(value: unknown): string | undefined {
  if (typeof value === "string" && DECIMAL.test(value.trim())) return value.trim();
  if (value instanceof LosslessNumber) return value.raw;
  if (typeof value === "number" && Number.isFinite(value)) return numberToPlain(value);
  return undefined;
}

/** A JS number as plain decimal text, without exponent notation. */
export function numberToPlain(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  const [mantissa, exp] = s.toLowerCase().split("e") as [string, string];
  const e = Number(exp);
  const negative = mantissa.startsWith("-");
  const [int, frac = ""] = mantissa.replace("-", "").split(".") as [string, string?];
  const digits = int + frac;
  const point = int.length + e;
  let out: string;
  if (point <= 0) out = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? "-" : "") + out;
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
  const [, sign = "", int = "0", frac = ""] = DECIMAL.exec(text) ?? [];
  const intPart = int.replace(/^0+(?=\d)/, "");
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

const UNITS: Array<[number, string]> = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
];

/** Large amounts compact: 1234567 → "1.23M". Prefix "$" for money. */
export function formatCompact(value: unknown, prefix = ""): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const n = Number(text);
  const abs = Math.abs(n);
  const sign = n < 0 ? "-" : "";
  for (const [size, unit] of UNITS) {
    if (abs >= size) return `${sign}${prefix}${trimZeros((abs / size).toFixed(2))}${unit}`;
  }
  return `${sign}${prefix}${trimZeros(abs.toFixed(abs >= 1 || abs === 0 ? 2 : 4))}`;
}

function trimZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** A signed percentage: "+1.23%", "-0.50%". */
export function formatPercent(value: unknown): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const n = Number(text);
  const fixed = Math.abs(n).toFixed(2);
  const sign = n > 0 && fixed !== "0.00" ? "+" : n < 0 && fixed !== "0.00" ? "-" : "";
  return `${sign}${fixed}%`;
}

export function formatInteger(value: unknown): string {
  const text = asDecimalText(value);
  if (text === undefined) return formatPlain(value);
  const [, sign = "", int = "0"] = DECIMAL.exec(text) ?? [];
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

/** A duration for people: "10s", "1.5s", "500ms". */
export function formatInterval(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
