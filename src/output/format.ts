import { LosslessNumber } from "../json/exact.js";
import {
  type DecimalParts,
  decimalParts,
  numberToPlain,
  roundDecimal,
  toPlainDecimal,
} from "../numbers/decimal.js";
import { numbersForAscii } from "../terminal/charset.js";
import { sanitizeInline } from "../terminal/sanitize.js";

// Cell formatting for tables: decimal strings are formatted from their digits, never through a
// float that would print 0.00 or 1e-7.

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

/**
 * A cell's number: text (exponent form included) or a JSON number, as its sign and digits; a
 * lossless number whose exponent is too long to write out is not one (it is shown as sent).
 */
function asDecimal(value: unknown): DecimalParts | undefined {
  if (value instanceof LosslessNumber) {
    const text = toPlainDecimal(value.raw);
    return text === undefined ? undefined : decimalParts(text);
  }
  return decimalParts(value);
}

/** Adds thousands separators to an integer string. */
function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Zeros after the point before a price below 1 has a digit: 0.0000001234 → 6. */
const leadingZeros = (frac: string) => /^0*/.exec(frac)![0].length;
/** Below 0.0001 a price is written with a subscript count of its zeros, never in a column's places. */
const SUBSCRIPT_FROM = 4;
/** Significant digits a price below 1 keeps. */
const PRICE_DIGITS = 4;

/** Whether a price is written in places (not 0, the subscript form or exponent form). */
function inPlaces(price: DecimalParts): boolean {
  if (price.int.length > MAX_INTEGER_DIGITS) return false;
  if (price.int !== "0") return true;
  const zeros = leadingZeros(price.frac);
  return zeros < price.frac.length && zeros < SUBSCRIPT_FROM;
}

/**
 * How a price column writes its numbers: `places` for every price of 1 or more, and for one below 1
 * as many as its 4 significant digits need when that is more (0.05249 → 0.05249, 5 places); then
 * `trim` trailing zeros that every price of the column has, dropped from all of them.
 */
export interface PriceRule {
  places: number;
  trim: number;
}

function placesFor(price: DecimalParts, rule: PriceRule): number {
  const own = price.int === "0" ? leadingZeros(price.frac) + PRICE_DIGITS : 0;
  return Math.max(rule.places, own) - rule.trim;
}

/**
 * One rule for a column of prices, chosen from its values: 2 places when every price is 1,000 or
 * more, else 4; then the trailing zeros all of them have dropped, down to 2 places when a price
 * is 1 or more (1 when all are below). So 4.057 beside 4.0201 is 4.0570, 0.5 alone is 0.5, 1234.5
 * is 1,234.50 and 0.99999 is 1.00.
 */
export function priceRule(values: readonly unknown[]): PriceRule | undefined {
  const prices = values
    .map(asDecimal)
    .filter((price): price is DecimalParts => price !== undefined && inPlaces(price));
  if (!prices.length) return undefined;
  const places = prices.every((p) => p.int.length >= 4) ? 2 : 4;
  const rounded = prices.map((p) => roundDecimal(p.int, p.frac, placesFor(p, { places, trim: 0 })));
  const min = rounded.some((r) => !r.startsWith("0.")) ? 2 : 1;
  const spare = Math.min(...rounded.map((r) => /0*$/.exec(r)![0].length));
  return { places, trim: Math.max(0, Math.min(spare, places - min)) };
}

/**
 * A price, rounded half up: 1234.5 → "1,234.50", 0.3698750479 → "0.3699", 0.0000001234 →
 * "0.0₆1234" (the subscript counts the zeros after the point, as trading screens do), never 0.00
 * and never exponent form. A table passes its column's rule (priceRule); alone, a price is a
 * column of one.
 */
export function formatPrice(value: unknown, rule = priceRule([value])): string {
  const p = asDecimal(value);
  if (p === undefined) return formatPlain(value);
  const { sign, int, frac } = p;
  // Past 24 digits a price is written as the market cap column writes it (1e+400), never in full.
  if (int.length > MAX_INTEGER_DIGITS) return `${sign}${scientific("", int, frac)}`;
  const zeros = leadingZeros(frac);
  if (int === "0" && zeros === frac.length) return "0";
  if (int === "0" && zeros >= SUBSCRIPT_FROM) return `${sign}${subscriptPrice(frac)}`;
  const places = placesFor(p, rule ?? { places: 4, trim: 0 });
  const [i, f = ""] = roundDecimal(int, frac, places).split(".") as [string, string?];
  return `${sign}${group(i)}.${f}`;
}

/** The most places an axis label is written with (past them, rows read alike: nothing to tell). */
const MAX_AXIS_PLACES = 20;

/** The decimals at which two values `step` apart are written apart: 0.003 → 3; 0 (one row) → 0. */
export function placesToTell(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  return Math.min(MAX_AXIS_PLACES, Math.max(0, Math.ceil(-Math.log10(step))));
}

/**
 * The places a column of these prices needs so that each shows what its own rule gives it (the
 * most of them): one figure for writing every price of a chart axis alike (formatPriceAt).
 */
export function pricePlaces(values: readonly unknown[]): number {
  const rule = priceRule(values) ?? { places: PRICE_DIGITS, trim: 0 };
  // Every price in digits counts, the ones written with a subscript too (0.0₅1200: 9 places).
  const prices = values
    .map(asDecimal)
    .filter(
      (price): price is DecimalParts =>
        price !== undefined && price.int.length <= MAX_INTEGER_DIGITS && /[1-9]/.test(price.int + price.frac),
    );
  return Math.max(rule.places - rule.trim, ...prices.map((p) => placesFor(p, rule)));
}

/**
 * A price with exactly `places` decimals, rounded half up, every digit kept (an axis's labels line
 * up): 4.42 at 4 places is "4.4200"; below 0.0001 the zeros are counted in subscript, 0.0₆12340.
 */
export function formatPriceAt(value: unknown, places: number): string {
  const p = asDecimal(value);
  if (p === undefined) return formatPlain(value);
  if (p.int.length > MAX_INTEGER_DIGITS) return `${p.sign}${scientific("", p.int, p.frac)}`;
  const [i, f = ""] = roundDecimal(p.int, p.frac, places).split(".") as [string, string?];
  const sign = /[1-9]/.test(i + f) ? p.sign : "";
  const zeros = leadingZeros(f);
  if (i === "0" && zeros >= SUBSCRIPT_FROM && zeros < f.length && !numbersForAscii())
    return `${sign}0.0${subscript(zeros)}${f.slice(zeros)}`;
  return `${sign}${group(i)}${f ? `.${f}` : ""}`;
}

/**
 * 0.0000001234 → "0.0₆1234": four significant digits, rounded half up, after the zeros' count, its
 * trailing zeros kept (0.000000062998 → "0.0₇6300", 0.00000000654 → "0.0₈6540"): every price
 * written with a subscript shows as many digits as the one beside it.
 */
function subscriptPrice(frac: string): string {
  const rounded = roundDecimal("0", frac, leadingZeros(frac) + PRICE_DIGITS).slice(2);
  const zeros = leadingZeros(rounded);
  const digits = rounded.slice(zeros, zeros + PRICE_DIGITS);
  // 0.000099995 rounds up to 0.0001, past where the subscript form starts.
  return zeros < SUBSCRIPT_FROM || numbersForAscii()
    ? `0.${"0".repeat(zeros)}${digits}`
    : `0.0${subscript(zeros)}${digits}`;
}

function subscript(count: number): string {
  return String(count).replace(/\d/g, (digit) => "₀₁₂₃₄₅₆₇₈₉"[Number(digit)]!);
}

/** Units by the number of digits they stand for, largest first. */
const UNITS: Array<[number, string]> = [
  [12, "T"],
  [9, "B"],
  [6, "M"],
  [3, "K"],
  [0, ""],
];

/** Places a column of compact amounts below 1 starts from, before its common trailing zeros go. */
const SMALL_PLACES = 4;

/**
 * The places a column of compact amounts shows: 2 when any of them is 1 or more (with or without a
 * unit: $8.87M beside $9.50M); when all are below 1, 4 less the trailing zeros all of them have,
 * down to 2 (0.1235 beside 0.5000; 0.03 alone).
 */
export function compactPlaces(values: readonly unknown[]): number {
  const parts = values.flatMap((v) => asDecimal(v) ?? []);
  if (parts.some((p) => p.int !== "0")) return 2;
  const rounded = parts
    .map((p) => roundDecimal(p.int, p.frac, SMALL_PLACES))
    .filter((figure) => /[1-9]/.test(figure));
  const spare = Math.min(SMALL_PLACES, ...rounded.map((r) => /0*$/.exec(r)![0].length));
  return Math.max(2, SMALL_PLACES - spare);
}

/** The unit (index in UNITS) an integer part of this many digits is written in. */
const unitOf = (int: string) => UNITS.findIndex(([size]) => int.length > size);

/** The digits shifted `size` places to the right, rounded half up to `places`: ("1234567", "", 6, 2) → "1.23". */
function inUnit(int: string, frac: string, size: number, places: number): string {
  const cut = int.length - size;
  return roundDecimal(
    cut > 0 ? int.slice(0, cut) : "0",
    "0".repeat(Math.max(0, -cut)) + int.slice(Math.max(0, cut)) + frac,
    places,
  );
}

/**
 * Amounts written alike for a chart axis: in the unit of the largest of `values`, with 2 decimals
 * or as many as rows `step` apart need to read apart: 1,234,000 and 980,000 as "$1.23M", "$0.98M".
 */
export function compactAxis(
  values: readonly unknown[],
  prefix: string,
  step: number,
): (value: unknown) => string {
  const ints = values.flatMap((v) => asDecimal(v)?.int ?? []);
  const widest = ints.reduce((longest, digits) => (digits.length > longest.length ? digits : longest), "0");
  if (widest.length > MAX_INTEGER_DIGITS) return (value) => formatCompact(value, prefix);
  const [size, unit] = UNITS[unitOf(widest)]!;
  const places = Math.max(2, placesToTell(step / 10 ** size));
  return (value) => {
    const p = asDecimal(value);
    if (p === undefined) return formatPlain(value);
    const { sign: rawSign, int, frac } = p;
    if (int.length > MAX_INTEGER_DIGITS) return formatCompact(value, prefix);
    const shown = inUnit(int, frac, size, places);
    return `${rawSign === "-" && /[1-9]/.test(shown) ? "-" : ""}${prefix}${shown}${unit}`;
  };
}

/**
 * Large amounts compact: 1234567 → "1.23M", 999999.99 → "1.00M" (a unit that rounds to 1000 is the
 * next unit's 1.00). Prefix "$" for money. Written from the digits, rounded half up, `places`
 * decimals (a table passes its column's, compactPlaces).
 */
export function formatCompact(value: unknown, prefix = "", places = compactPlaces([value])): string {
  const p = asDecimal(value);
  if (p === undefined) return formatPlain(value);
  const { sign: rawSign, int, frac } = p;
  const zero = /^0*$/.test(int + frac);
  const sign = rawSign === "-" && !zero ? "-" : "";
  if (zero) return `${prefix}0`;
  if (int.length > MAX_INTEGER_DIGITS) return `${sign}${prefix}${scientific("", int, frac)}`;
  let u = unitOf(int);
  let shown = inUnit(int, frac, UNITS[u]![0], places);
  if (/^\d{4}/.test(shown) && u > 0) shown = inUnit(int, frac, UNITS[--u]![0], places);
  // Below what the places show, the price format keeps the digits: $0.0₆1500, never $0.00.
  if (/^[0.]*$/.test(shown)) return `${sign}${prefix}${formatPrice(`0.${frac}`)}`;
  return `${sign}${prefix}${shown}${UNITS[u]![1]}`;
}

function trimZeros(text: string): string {
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** A number with `places` decimals, rounded half up from its digits: (70.05, 1) → "70.1". */
export function formatFixed(value: unknown, places: number): string {
  const p = asDecimal(value);
  if (p === undefined) return formatPlain(value);
  const { sign: rawSign, int, frac } = p;
  if (int.length > MAX_INTEGER_DIGITS) return scientific(rawSign, int, frac);
  const fixed = roundDecimal(int, frac, places);
  return `${rawSign === "-" && /[1-9]/.test(fixed) ? "-" : ""}${fixed}`;
}

/** A share of a whole, two places in every row: "52.00%" beside "7.12%". */
export function formatShare(value: unknown): string {
  return asDecimal(value) === undefined ? formatPlain(value) : `${formatFixed(value, 2)}%`;
}

/** A signed percentage: "+1.23%", "-0.50%". */
export function formatPercent(value: unknown): string {
  const p = asDecimal(value);
  if (p === undefined) return formatPlain(value);
  const { sign: rawSign, int, frac } = p;
  if (int.length > MAX_INTEGER_DIGITS) return `${scientific(rawSign === "-" ? "-" : "+", int, frac)}%`;
  const fixed = roundDecimal(int, frac, 2);
  const sign = fixed === "0.00" ? "" : rawSign === "-" ? "-" : "+";
  return `${sign}${fixed}%`;
}

export function formatInteger(value: unknown): string {
  const p = asDecimal(value);
  if (p === undefined) return formatPlain(value);
  const { sign, int, frac } = p;
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
