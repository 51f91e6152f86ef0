import { LosslessNumber, stringifyJson } from "../api/json.js";
import { getPath } from "./paths.js";
import { compareDecimals, compareValues, decimalParts } from "./sort.js";

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
}

/** Why a condition cannot be read, for a usage error naming --where. */
export class WhereSyntaxError extends Error {}

const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

/** `token_metrics.mcap>=1000000` → {path, op, value}: the first operator in the text splits it. */
export function parseWhere(text: string): WhereCondition {
  const at = text.search(/[!<>=~]/);
  if (at < 0) {
    throw new WhereSyntaxError(
      `expected <field><op><value> with op one of ${WHERE_OPS.join(" ")}, got ${JSON.stringify(text)}`,
    );
  }
  const two = text.slice(at, at + 2);
  const op = (WHERE_OPS as readonly string[]).includes(two) && two.length === 2 ? two : text[at]!;
  if (!(WHERE_OPS as readonly string[]).includes(op)) {
    throw new WhereSyntaxError(`unknown operator in ${JSON.stringify(text)} (use ${WHERE_OPS.join(" ")})`);
  }
  const path = text.slice(0, at).trim();
  const value = text.slice(at + op.length).trim();
  if (!PATH.test(path))
    throw new WhereSyntaxError(`expected a field before "${op}" in ${JSON.stringify(text)}`);
  if (value === "" && op !== "=" && op !== "!=")
    throw new WhereSyntaxError(`expected a value after "${op}" in ${JSON.stringify(text)}`);
  if (value === "null" && op !== "=" && op !== "!=")
    throw new WhereSyntaxError(`null can only be compared with = or != (in ${JSON.stringify(text)})`);
  return { path, op: op as WhereOp, value };
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
  const wanted = decimalParts(cond.value);
  const have = decimalParts(actual);
  if (cond.op === "=") {
    if (wanted && have) return compareDecimals(have, wanted) === 0;
    return asText(actual) === cond.value;
  }
  // Ordering: numbers with numbers, text with text; a number never orders against text.
  let order: number;
  if (wanted && have) order = compareDecimals(have, wanted);
  else if (!wanted && !have && typeof actual === "string") order = compareValues(actual, cond.value);
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
