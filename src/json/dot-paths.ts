import { LosslessNumber } from "./exact.js";

/**
 * Reads a dot path (`token_metrics.usd_price`) from a record: its own fields only, so that a path
 * such as `constructor` or `toString` reads nothing rather than JavaScript's internals.
 */
export function getPath(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A copy of the record holding only the given dot paths, nested as in the original. */
export function pickPaths(record: unknown, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const value = getPath(record, path);
    if (value === undefined) continue;
    const parts = path.split(".");
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const existing = target[part];
      if (existing === null || typeof existing !== "object" || existing instanceof LosslessNumber) {
        target[part] = {};
      }
      target = target[part] as Record<string, unknown>;
    }
    target[parts[parts.length - 1]!] = value;
  }
  return out;
}

/** Flattens nested objects to dot-path leaves; arrays stay whole. */
export function flatten(
  record: unknown,
  prefix = "",
  out: Map<string, unknown> = new Map(),
): Map<string, unknown> {
  if (
    record === null ||
    typeof record !== "object" ||
    Array.isArray(record) ||
    record instanceof LosslessNumber
  ) {
    out.set(prefix || "value", record);
    return out;
  }
  const entries = Object.entries(record);
  if (entries.length === 0 && prefix) out.set(prefix, record);
  for (const [key, value] of entries) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      !(value instanceof LosslessNumber)
    ) {
      flatten(value, path, out);
    } else {
      out.set(path, value);
    }
  }
  return out;
}
