import { getPath } from "../json/dot-paths.js";
import { LosslessNumber, stringifyJson } from "../json/exact.js";
import { compareDecimals, type DecimalParts, decimalParts } from "../numbers/decimal.js";

// Record queries, run on records as they stream in (api/records.ts takes the filter) or on a
// page held for a table: --where keeps the records that pass, --sort orders them.

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

export function compareValues(left: unknown, right: unknown): number {
  const dx = decimalParts(left);
  const dy = decimalParts(right);
  if (dx && dy) return compareDecimals(dx, dy);
  if (dx) return -1; // numbers before text
  if (dy) return 1;
  if (typeof left === "boolean" && typeof right === "boolean") return Number(left) - Number(right);
  return String(left).localeCompare(String(right));
}

/** A stable sort; records without the field go last in both directions. */
export function sortRecords(records: unknown[], spec: SortSpec): unknown[] {
  const missing = (value: unknown) => value === undefined || value === null || value === "";
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
    .map((entry) => entry.record);
}

// --where <path><op><value>: a filter on records, applied before --sort and --limit. Numbers are
// compared exactly from their digits, with --sort's comparator; text as text; `null` stands for a
// value that is missing or null. A record must pass every condition (AND).

export const WHERE_OPS = ["!=", ">=", "<=", "=", ">", "<", "~"] as const;
export type WhereOp = (typeof WHERE_OPS)[number];

export interface WhereCondition {
  path: string;
  op: WhereOp;
  /** The value as typed. */
  value: string;
  /** The value read as a number (see readNumber), when it is one. */
  number?: DecimalParts;
  /** The value read as a boolean (true or false, any case), when it is one. */
  bool?: boolean;
}

/** Why a condition cannot be read, for a usage error naming --where. */
export class WhereSyntaxError extends Error {}

const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const OP_CHARS = /[!<>=~]+/;

/** The number forms --where reads, for messages. */
export const NUMBER_FORMS = "1000, -3, 0.5, .5, 1e6, 2.5E-3, 1_000, 1.5k, 2M, 3B, 1T, and a $ in front";

const SUFFIX: Record<string, number> = { k: 3, m: 6, b: 9, t: 12 };
const USER_NUMBER = /^([+-]?)\$?(\d+(?:_\d+)*)?(?:\.(\d+(?:_\d+)*)?)?(?:e([+-]?\d+))?([kmbt])?$/i;

/**
 * A number as a person types it in a filter, read exactly: signs, a leading point (.5), exponents
 * (1e6), underscores between digits (1_000), a K/M/B/T suffix (thousand to trillion) and a $ in
 * front. Anything else (1,000, 0x10, abc, 1..2) is not a number.
 */
export function readNumber(text: string): DecimalParts | undefined {
  const m = USER_NUMBER.exec(text.trim());
  if (!m) return undefined;
  const [, sign = "", int = "", frac = "", exp = "0", suffix] = m;
  if (!int && !frac) return undefined;
  const e = Number(exp) + (suffix ? SUFFIX[suffix.toLowerCase()]! : 0);
  return decimalParts(`${sign}${int.replace(/_/g, "") || "0"}.${frac.replace(/_/g, "") || "0"}e${e}`);
}

/** Why a value is not a number, with the forms that are. */
export function notANumber(value: string): string {
  const hint = value.includes(",")
    ? " (a comma is not read: write 1000 or 1_000)"
    : /^[+-]?0x/i.test(value)
      ? " (hexadecimal is not read)"
      : "";
  return `${JSON.stringify(value)} is not a number${hint}; numbers are written ${NUMBER_FORMS}`;
}

/** `token_metrics.mcap>=1000000` → {path, op, value}: the first run of operator characters splits it. */
export function parseWhere(text: string): WhereCondition {
  const found = OP_CHARS.exec(text);
  if (!found) {
    throw new WhereSyntaxError(
      `expected <field><op><value> with op one of ${WHERE_OPS.join(" ")}, got ${JSON.stringify(text)}`,
    );
  }
  const at = found.index;
  // The whole run of operator characters is the operator: ">>", "=<", "==" and "<>" are typos to
  // name, not ">" followed by a value starting with ">".
  const op = found[0];
  if (!(WHERE_OPS as readonly string[]).includes(op)) {
    throw new WhereSyntaxError(
      `unknown operator "${op}" in ${JSON.stringify(text)} (the operators are ${WHERE_OPS.join(" ")})`,
    );
  }
  const path = text.slice(0, at).trim();
  const value = text.slice(at + op.length).trim();
  if (!PATH.test(path))
    throw new WhereSyntaxError(`expected a field before "${op}" in ${JSON.stringify(text)}`);
  if (value === "" && op !== "=" && op !== "!=")
    throw new WhereSyntaxError(`expected a value after "${op}" in ${JSON.stringify(text)}`);
  if (value === "null" && op !== "=" && op !== "!=")
    throw new WhereSyntaxError(`null can only be compared with = or != (in ${JSON.stringify(text)})`);
  const condition: WhereCondition = { path, op: op as WhereOp, value };
  const number = readNumber(value);
  if (number) condition.number = number;
  if (/^(true|false)$/i.test(value)) condition.bool = value.toLowerCase() === "true";
  return condition;
}

/** A record value as text for = and ~ on text: numbers as sent, objects as JSON. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof LosslessNumber) return value.raw;
  if (value !== null && typeof value === "object") return stringifyJson(value);
  return String(value);
}

/** Whether one record passes one condition. */
export function matchesCondition(record: unknown, cond: WhereCondition): boolean {
  const actual = getPath(record, cond.path);
  const absent = actual === undefined || actual === null;
  if (cond.value === "null") return cond.op === "=" ? absent : !absent;
  if (cond.op === "!=") return !matchesCondition(record, { ...cond, op: "=" });
  if (absent) return false;
  if (cond.op === "~") return asText(actual).toLowerCase().includes(cond.value.toLowerCase());
  const have = decimalParts(actual);
  if (cond.op === "=") {
    if (cond.bool !== undefined && (typeof actual === "boolean" || /^(true|false)$/i.test(String(actual))))
      return String(actual).toLowerCase() === String(cond.bool);
    if (cond.number && have) return compareDecimals(have, cond.number) === 0;
    return asText(actual) === cond.value;
  }
  // Ordering: numbers with numbers, text with text; a number never orders against text.
  let order: number;
  if (cond.number && have) order = compareDecimals(have, cond.number);
  else if (!cond.number && !have && typeof actual === "string") order = compareValues(actual, cond.value);
  else return false;
  switch (cond.op) {
    case ">":
      return order > 0;
    case ">=":
      return order >= 0;
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
  }
}

/** Whether a record passes every condition. */
export function matchesAll(record: unknown, conditions: readonly WhereCondition[]): boolean {
  return conditions.every((cond) => matchesCondition(record, cond));
}
