import { dotPaths, type Shape } from "../../contract/shapes.js";
import { UsageError } from "../../errors.js";
import { closest } from "../../help/hints.js";
import { unsafeSegment } from "../../json/dot-paths.js";
import type { SortSpec } from "../../query/records.js";
import { notANumber, parseWhere, type WhereCondition, WhereSyntaxError } from "../../query/records.js";
import type { FieldsSeen } from "./fields-seen.js";

// Dot paths named on the command line (--fields, --columns, --sort, --where), checked against the
// shape of the command's records, with a suggestion when only the section was left out. A path the
// shape does not list, that is no typo of one, is looked for in the records (fields-seen.ts).

/** Paths that end the same way as `path` (the section left out, or a different one), at most three. */
export function nearPaths(path: string, known: Iterable<string>): string[] {
  const leaf = path.split(".").pop()!;
  const all = [...known];
  const sameLeaf = all
    .filter((candidate) => candidate.endsWith(`.${leaf}`) || candidate === leaf)
    .slice(0, 3);
  // Else a typo: token_info.symbl → token_info.symbol.
  return sameLeaf.length ? sameLeaf : closest(path, all);
}

function unknownField(flag: string, path: string, known: Iterable<string>, what: string): UsageError {
  const near = nearPaths(path, known);
  return new UsageError(
    `${flag}: unknown field "${path}" for ${what}${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
  );
}

/**
 * Refuses a path through a name of an object's internals (`__proto__.polluted`): every flag and
 * tool argument that takes a path is checked here, before any request.
 */
function refuseUnsafePath(flag: string, path: string): void {
  const segment = unsafeSegment(path);
  if (segment === undefined) return;
  throw new UsageError(
    `${flag}: ${JSON.stringify(path)}: ${JSON.stringify(segment)} is no field name: __proto__, constructor and prototype name JavaScript's object internals, and no path reads them`,
  );
}

/** A path of field names as APIs write them (letters, digits, _ and -): anything else costs no request. */
const FIELD_PATH = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/;

/**
 * The paths as given, each checked against the shape. One the shape does not list is refused when
 * it reads as a typo of one it does (token_info.symbl) or as one with its section left out
 * (usd_price for token_metrics.usd_price), or is no path of field names (@file, a..b), so that a
 * slip costs no request; else, given
 * `seen`, it is looked for in the records (a record may carry more than its shape). Every path is
 * looked for, so that one no record has is named.
 */
export function checkPaths(
  flag: string,
  paths: readonly string[] | undefined,
  shape: Shape,
  what: string,
  seen?: FieldsSeen,
): string[] | undefined {
  if (!paths) return undefined;
  for (const path of paths) refuseUnsafePath(flag, path);
  const known = new Set(dotPaths(shape));
  for (const path of paths) {
    if (!known.has(path)) seen?.pointElsewhere(flag, path);
    const looked = seen && FIELD_PATH.test(path) && !nearPaths(path, known).length;
    if (!known.has(path) && !looked) throw unknownField(flag, path, known, what);
    seen?.expect(flag, path, known.has(path));
  }
  return [...paths];
}

/** What `--fields` alone prints: every path --fields takes, sections and their fields, one a line. */
export function pathListing(shape: Shape, extra: readonly string[] = []): string {
  return `${[...extra, ...dotPaths(shape)].join("\n")}\n`;
}

/** Fields whose values are levels of risk, sorted by how bad they are rather than by name. */
const SEVERITY_PATHS = new Set(["rug_status"]);

/** What a shape says of a path: a section, a field's kind, or undefined (not its own key). */
function shapeNode(shape: Shape, path: string): Shape | string | undefined {
  let node: Shape | string | undefined = shape;
  for (const key of path.split(".")) {
    if (typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function isSection(shape: Shape, path: string): boolean {
  return typeof shapeNode(shape, path) === "object";
}

/** --sort <path>[:asc|desc] */
export function parseSortFlag(
  text: string | undefined,
  shape: Shape,
  what: string,
  seen?: FieldsSeen,
): SortSpec | undefined {
  if (text === undefined) return undefined;
  const m = /^([^:]+?)(?::(asc|desc))?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--sort: expected <field>[:asc|desc], got ${JSON.stringify(text)}`);
  const path = m[1]!;
  const known = dotPaths(shape);
  checkPaths("--sort", [path], shape, what, seen);
  if (known.includes(path) && isSection(shape, path)) {
    const inside = known.filter((k) => k.startsWith(`${path}.`)).slice(0, 3);
    throw new UsageError(
      `--sort: "${path}" is a section, not a value; sort by one of its fields (e.g. ${inside.join(", ")})`,
    );
  }
  return {
    path,
    descending: m[2]?.toLowerCase() === "desc",
    ...(SEVERITY_PATHS.has(path) ? { by: "severity" as const } : {}),
  };
}

/** The kind of value a path holds in a shape: a number, a boolean, text, or undefined (a section, or not said). */
function valueKind(shape: Shape, path: string): "number" | "bool" | "text" | undefined {
  const node = shapeNode(shape, path);
  if (typeof node !== "string") return undefined;
  const kind = node.replace(/[?~]$/, "");
  if (kind === "decimal" || kind === "numeric" || kind === "int" || kind === "number") return "number";
  if (kind === "bool") return "bool";
  return "text";
}

/**
 * --where <path><op><value>, repeatable: each condition read, its path checked like --fields', and
 * its value checked against what the field holds: a number field compares only with a number, a
 * boolean with true or false (any case), so that a typo is an error, never a filter that silently
 * matches nothing.
 */
export function parseWhereFlags(
  texts: readonly string[] | undefined,
  shape: Shape,
  what: string,
  seen?: FieldsSeen,
): WhereCondition[] | undefined {
  if (!texts?.length) return undefined;
  const conditions = texts.map((text) => {
    try {
      return parseWhere(text);
    } catch (error) {
      if (error instanceof WhereSyntaxError) throw new UsageError(`--where: ${error.message}`);
      throw error;
    }
  });
  checkPaths(
    "--where",
    conditions.map((c) => c.path),
    shape,
    what,
    seen,
  );
  texts.forEach((text, index) => {
    const c = conditions[index]!;
    if (c.op === "~" || c.value === "null") return;
    const kind = valueKind(shape, c.path);
    if (kind === "number" && !c.number && !(c.value === "" && (c.op === "=" || c.op === "!=")))
      throw new UsageError(
        `--where ${JSON.stringify(text)}: ${c.path} holds numbers, and ${notANumber(c.value)}`,
      );
    if (kind === "bool" && c.bool === undefined)
      throw new UsageError(
        `--where ${JSON.stringify(text)}: ${c.path} is true or false, not ${JSON.stringify(c.value)}${c.op === "=" || c.op === "!=" ? "" : ` (compare it with = or !=)`}`,
      );
    if (kind === "bool" && c.op !== "=" && c.op !== "!=")
      throw new UsageError(
        `--where ${JSON.stringify(text)}: ${c.path} is true or false: compare it with = or !=`,
      );
  });
  return conditions;
}
