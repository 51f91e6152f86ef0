import { getPath } from "../json/dot-paths.js";
import { compareDecimals, decimalParts } from "../numbers/decimal.js";

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
