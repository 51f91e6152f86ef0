import { LosslessNumber } from "../api/json.js";
import { numberToPlain, toPlainDecimal } from "./format.js";
import { getPath } from "./paths.js";

// --sort <path>[:asc|desc]: by any dot path, numbers compared exactly from their digits (decimal
// strings, JSON numbers and lossless numbers alike), text by locale, missing values last.

export interface SortSpec {
  path: string;
  descending: boolean;
  /** "severity": risk levels (SAFE < CAUTION < HIGH_RISK), not their names in alphabetical order. */
  by?: "severity";
}

const SEVERITY: Record<string, number> = {
  SAFE: 0,
  LOW: 0,
  LOW_RISK: 0,
  CAUTION: 1,
  MEDIUM: 1,
  MEDIUM_RISK: 1,
};

/** How bad a risk level is: safe 0, caution 1, anything else (HIGH_RISK, RUG, unknown) 2. */
export function severityRank(value: unknown): number {
  return SEVERITY[String(value).trim().toUpperCase()] ?? 2;
}

const DECIMAL = /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/;

export interface DecimalParts {
  negative: boolean;
  int: string;
  frac: string;
}

/** A number's sign and digits, read from a decimal string, a JSON number or a lossless number. */
export function decimalParts(value: unknown): DecimalParts | undefined {
  let text: string | undefined;
  // Exponent forms (1e400, "2.5E-3") are written out from their digits, never through a double.
  if (typeof value === "string") text = toPlainDecimal(value.trim()) ?? value;
  else if (typeof value === "number" && Number.isFinite(value)) text = numberToPlain(value);
  else if (value instanceof LosslessNumber)
    text = toPlainDecimal(value.raw) ?? numberToPlain(Number(value.raw));
  if (text === undefined) return undefined;
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const int = m[2]!.replace(/^0+(?=\d)/, "");
  const frac = (m[3] ?? "").replace(/0+$/, "");
  const zero = /^0$/.test(int) && frac === "";
  return { negative: m[1] === "-" && !zero, int, frac };
}

/** Compares two decimals digit by digit: no float, so 0.10000000000000000001 > 0.1. */
export function compareDecimals(a: DecimalParts, b: DecimalParts): number {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  if (a.int.length !== b.int.length) return sign * (a.int.length - b.int.length);
  if (a.int !== b.int) return sign * (a.int < b.int ? -1 : 1);
  const width = Math.max(a.frac.length, b.frac.length);
  const fa = a.frac.padEnd(width, "0");
  const fb = b.frac.padEnd(width, "0");
  return fa === fb ? 0 : sign * (fa < fb ? -1 : 1);
}

export function compareValues(x: unknown, y: unknown): number {
  const dx = decimalParts(x);
  const dy = decimalParts(y);
  if (dx && dy) return compareDecimals(dx, dy);
  if (dx) return -1; // numbers before text
  if (dy) return 1;
  if (typeof x === "boolean" && typeof y === "boolean") return Number(x) - Number(y);
  return String(x).localeCompare(String(y));
}

/** A stable sort; records without the field go last in both directions. */
export function sortRecords(records: unknown[], spec: SortSpec): unknown[] {
  const missing = (v: unknown) => v === undefined || v === null || v === "";
  return records
    .map((record, index) => ({ record, index, value: getPath(record, spec.path) }))
    .sort((a, b) => {
      const ma = missing(a.value);
      const mb = missing(b.value);
      if (ma || mb) return ma === mb ? a.index - b.index : ma ? 1 : -1;
      const c =
        spec.by === "severity"
          ? severityRank(a.value) - severityRank(b.value)
          : compareValues(a.value, b.value);
      return (spec.descending ? -c : c) || a.index - b.index;
    })
    .map((x) => x.record);
}
