// The bounds on what a server can make tokenintel hold or do, in one place (the README's "Safety"
// section lists them). Each is enforced where the bytes arrive: a later step never meets more.

/** The most bytes one response body may hold unless --max-body says otherwise (a page is < 1 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 ** 2;
/** The smallest --max-body. */
export const MIN_BODY_CAP_BYTES = 1024;
/** The largest --max-body: near the longest string the runtime can hold. */
export const MAX_BODY_CAP_BYTES = 256 * 1024 ** 2;

/**
 * The most pages one walk requests unless --max-pages says otherwise: 100,000 directory records or
 * 30,000 market records, more than any listing holds, and a bound on a server that never ends.
 */
export const DEFAULT_MAX_PAGES = 1000;

/**
 * The deepest nesting of arrays and objects accepted from anywhere. The API's records are four
 * levels deep; the limit keeps every later walk over a parsed value (writers, flattening, sorting,
 * schemas) far from the call-stack limit, whatever a server sends.
 */
export const MAX_JSON_DEPTH = 512;

/** 33554432 → "32 MiB"; with `compact`, "32MiB" (as a flag value is written). */
export function formatBytes(bytes: number, compact = false): string {
  const sep = compact ? "" : " ";
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${sep}${unit}`;
  }
  return compact ? String(bytes) : `${bytes} bytes`;
}

/** The most characters of one item of a list flag, and of a text an agent may send (--ecosystem). */
export const MAX_ITEM_LENGTH = 200;
