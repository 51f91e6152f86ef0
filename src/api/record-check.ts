import { type RecordKind, shapeOf } from "../contract/endpoints.js";
import type { Shape } from "../contract/shapes.js";

// The client-mode record check (schemas.ts, mode "client") written out by hand for the hot loop,
// where it runs on every record of every page: a record is an object (not an array, not null),
// and each section its shape names is, when present, an object or null. It reads the same shapes
// (contract/shapes.ts). It only ever accepts what the schema accepts; whatever it does not accept goes to
// the schema, which then accepts it after all or names the problem in its own words.

function sectionsOf(shape: Shape): string[] {
  return Object.entries(shape)
    .filter(([, spec]) => typeof spec === "object")
    .map(([key]) => key);
}

/** Each kind's sections, read from its shape once. */
const SECTIONS = new Map<RecordKind, readonly string[]>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a record certainly passes the client-mode check for its kind. */
export function passesClientCheck(record: unknown, kind: RecordKind): boolean {
  const shape = shapeOf(kind);
  if (!shape) return true;
  if (!isObject(record)) return false;
  let sections = SECTIONS.get(kind);
  if (!sections) {
    sections = sectionsOf(shape);
    SECTIONS.set(kind, sections);
  }
  for (let i = 0; i < sections.length; i++) {
    const section = record[sections[i]!];
    if (section !== undefined && section !== null && !isObject(section)) return false;
  }
  return true;
}
