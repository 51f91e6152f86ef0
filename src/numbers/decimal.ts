import { LosslessNumber } from "../json/exact.js";

// Exact decimal numbers: written out from their digits (exponent forms included) and compared
// digit by digit, never through a double. Formatting (output/format.ts), sorting and
// --where (query/records.ts), the risk rules (risk/rules.ts), the strict schemas (api/schemas.ts)
// and the sandbox's data read numbers through here.

/**
 * Number text: a sign, integer digits, a fraction after a point, an exponent ("-12.50", "+3",
 * "007", "1.5e-07", "2.5E+06"). The one pattern tokenintel reads a number's text with: formatting,
 * --where and --sort, the risk rules, the strict schemas and the sandbox all come through here.
 */
const NUMBER_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Exponents beyond this are not written out in digits (the number is shown as sent). */
export const MAX_EXPANDED_EXPONENT = 10_000;

/**
 * Number text, exponent form included, as plain decimal text written from its digits (never
 * through a float, which turns 1e400 into Infinity). Undefined when it is not a number, or when
 * its exponent is beyond MAX_EXPANDED_EXPONENT.
 */
export function toPlainDecimal(text: string): string | undefined {
  const m = NUMBER_TEXT.exec(text);
  if (!m) return undefined;
  const [, sign = "", int = "0", frac = "", exp] = m;
  if (exp === undefined) return text;
  const e = Number(exp);
  if (!Number.isSafeInteger(e) || Math.abs(e) > MAX_EXPANDED_EXPONENT) return undefined;
  const digits = int + frac;
  const point = int.length + e;
  let out: string;
  if (point <= 0) out = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  out = out.replace(/^0+(?=\d)/, "");
  if (out.includes(".")) out = out.replace(/\.?0+$/, "");
  return sign + out;
}

/** A JS number as plain decimal text, without exponent notation. */
export function numberToPlain(value: number): string {
  const s = String(value);
  if (!/e/i.test(s)) return s;
  return toPlainDecimal(s) ?? s;
}

export interface DecimalParts {
  /** Below zero: "-0.00" is not. */
  negative: boolean;
  /** The sign as written: "-" (on a zero too), "+" or "". */
  sign: "" | "+" | "-";
  /** The integer digits, without leading zeros ("0" for none). */
  int: string;
  /** The fraction's digits, without trailing zeros ("" for none). */
  frac: string;
}

/**
 * A number's sign and digits, read from number text (surrounding spaces and an exponent allowed:
 * "1e400", " 2.5E-3 " are written out from their digits, never through a double), a JSON number or
 * a lossless number; undefined for anything else, and for an exponent past MAX_EXPANDED_EXPONENT.
 */
export function decimalParts(value: unknown): DecimalParts | undefined {
  if (typeof value === "string") return partsOfText(value.trim());
  if (typeof value === "number")
    return Number.isFinite(value) ? partsOfText(numberToPlain(value)) : undefined;
  // A lossless number whose exponent is too long to write out is read as the double it rounds to.
  if (value instanceof LosslessNumber) return partsOfText(value.raw) ?? decimalParts(Number(value.raw));
  return undefined;
}

function partsOfText(text: string): DecimalParts | undefined {
  let m = NUMBER_TEXT.exec(text);
  if (m?.[4] !== undefined) {
    const plain = toPlainDecimal(text);
    m = plain === undefined ? null : NUMBER_TEXT.exec(plain);
  }
  if (!m) return undefined;
  const sign = m[1] as DecimalParts["sign"];
  const int = m[2]!.length > 1 && m[2]!.charCodeAt(0) === 48 ? m[2]!.replace(/^0+(?=\d)/, "") : m[2]!;
  const raw = m[3];
  const frac = raw === undefined ? "" : raw.charCodeAt(raw.length - 1) === 48 ? raw.replace(/0+$/, "") : raw;
  return { negative: sign === "-" && (int !== "0" || frac !== ""), sign, int, frac };
}

/**
 * Whether text is a decimal as the service writes one: a minus or no sign, digits, a fraction;
 * no plus sign, exponent or spaces ("-12.50", "3").
 */
export function isDecimalText(text: string): boolean {
  return text.charCodeAt(0) !== 43 && !text.includes("e") && !text.includes("E") && NUMBER_TEXT.test(text);
}

/** Compares two decimals digit by digit: no float, so 0.10000000000000000001 > 0.1. */
export function compareDecimals(left: DecimalParts, right: DecimalParts): number {
  if (left.negative !== right.negative) return left.negative ? -1 : 1;
  const sign = left.negative ? -1 : 1;
  if (left.int.length !== right.int.length) return sign * (left.int.length - right.int.length);
  if (left.int !== right.int) return sign * (left.int < right.int ? -1 : 1);
  const width = Math.max(left.frac.length, right.frac.length);
  const fa = left.frac.padEnd(width, "0");
  const fb = right.frac.padEnd(width, "0");
  return fa === fb ? 0 : sign * (fa < fb ? -1 : 1);
}

/**
 * `int.frac` rounded half up (away from zero, on the digits alone) to `decimals` places, as plain
 * text with exactly that many decimals: ("0", "3698750479", 4) → "0.3699", ("999", "995", 2) →
 * "1000.00". int and frac are digits without a sign.
 */
export function roundDecimal(int: string, frac: string, decimals: number): string {
  const digits = (frac + "0".repeat(decimals + 1)).slice(0, decimals + 1);
  let kept = BigInt(int + digits.slice(0, decimals));
  if (Number(digits[decimals]) >= 5) kept += 1n;
  const s = kept.toString().padStart(decimals + 1, "0");
  return decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}` : s;
}

/**
 * A decimal rounded half up to `digits` significant digits (at least `minDecimals` places when its
 * integer part is longer), trailing zeros dropped: 0.0088658… → "0.008866" (4), 45.123 → "45.12"
 * (4 digits, 2 places), 0 → "0". Read from the digits, never through a double.
 */
export function significant(parts: DecimalParts, digits: number, minDecimals = 0): string {
  const zeros = parts.int === "0" ? /^0*/.exec(parts.frac)![0].length : 0;
  const whole = parts.int === "0" ? 0 : parts.int.length;
  const decimals = Math.max(minDecimals, parts.int === "0" ? zeros + digits : digits - whole);
  const rounded = roundDecimal(parts.int, parts.frac, Math.max(0, decimals));
  const text = rounded.includes(".") ? rounded.replace(/\.?0+$/, "") : rounded;
  return parts.negative && text !== "0" ? `-${text}` : text;
}

/** left − right, exactly, as plain decimal text ("-1200.5"); undefined when either is not a number. */
export function subtractDecimals(left: unknown, right: unknown): string | undefined {
  const x = decimalParts(left);
  const y = decimalParts(right);
  if (!x || !y) return undefined;
  const scale = Math.max(x.frac.length, y.frac.length);
  const atomic = (parts: DecimalParts) =>
    (parts.negative ? -1n : 1n) * BigInt(parts.int + parts.frac.padEnd(scale, "0"));
  const diff = atomic(x) - atomic(y);
  const digits = (diff < 0n ? -diff : diff).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${diff < 0n ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
}

/**
 * value × factor for a whole number factor, exactly, as plain decimal text ("0.000013" × 876000 →
 * "11.388"); undefined when value is not a number.
 */
export function multiplyDecimal(value: unknown, factor: bigint): string | undefined {
  const x = decimalParts(value);
  if (!x) return undefined;
  const scale = x.frac.length;
  const product = BigInt(x.int + x.frac) * (factor < 0n ? -factor : factor);
  const negative = product !== 0n && x.negative !== factor < 0n;
  const digits = product.toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
}
