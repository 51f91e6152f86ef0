import { LosslessNumber } from "./exact.js";

/**
 * Names JavaScript gives an object's internals. A record may carry them as keys (JSON.parse and the
 * exact parser make them own properties): data, printed as sent, but never a step of a path, so
 * that neither a server's key nor a path a user or an agent names reads or writes through a
 * prototype.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The first segment of a dot path that names an object's internals, if one does. */
export function unsafeSegment(path: string): string | undefined {
  return path.split(".").find((part) => UNSAFE_KEYS.has(part));
}

/**
 * Reads a dot path (`token_metrics.usd_price`) from a record: its own fields only, so that a path
 * such as `constructor` or `toString` reads nothing rather than JavaScript's internals, and never
 * through a key UNSAFE_KEYS names, even one the record carries.
 */
export function getPath(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split(".")) {
    if (UNSAFE_KEYS.has(part)) return undefined;
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Sets an own data property: never a setter, whatever the key (`__proto__` sets a prototype). */
function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A section a path goes on into: an object as parsed, not an array's index nor an exact number. */
function isSection(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !(value instanceof LosslessNumber);
}

/**
 * A copy of the record holding only the given dot paths, nested as in the original; a path the
 * record does not hold (or one getPath refuses) is left out. Built of own properties only.
 */
export function pickPaths(record: unknown, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const value = getPath(record, path);
    if (value === undefined) continue;
    const parts = path.split(".");
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const existing = Object.hasOwn(target, part) ? target[part] : undefined;
      if (!isSection(existing)) setOwn(target, part, {});
      target = target[part] as Record<string, unknown>;
    }
    setOwn(target, parts[parts.length - 1]!, value);
  }
  return out;
}

/**
 * Flattens nested objects to dot-path leaves; arrays stay whole, and so does the value of a key
 * UNSAFE_KEYS names: one leaf, never a step into it.
 */
export function flatten(
  record: unknown,
  prefix = "",
  out: Map<string, unknown> = new Map(),
): Map<string, unknown> {
  if (!isSection(record) || Array.isArray(record)) {
    out.set(prefix || "value", record);
    return out;
  }
  const entries = Object.entries(record);
  if (entries.length === 0 && prefix) out.set(prefix, record);
  for (const [key, value] of entries) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isSection(value) && !Array.isArray(value) && !UNSAFE_KEYS.has(key)) flatten(value, path, out);
    else out.set(path, value);
  }
  return out;
}
