import { dotPaths, type Shape } from "../../api/fields.js";
import { UsageError } from "../../errors.js";
import type { SortSpec } from "../../output/sort.js";
import { parseWhere, type WhereCondition, WhereSyntaxError } from "../../output/where.js";

// Dot paths named on the command line (--fields, --columns, --sort), checked against the shape of
// the command's records, with a suggestion when only the section was left out.

export function checkPaths(
  flag: string,
  paths: readonly string[] | undefined,
  shape: Shape,
  what: string,
): string[] | undefined {
  if (!paths) return undefined;
  const known = new Set(dotPaths(shape));
  for (const path of paths) {
    if (!known.has(path)) {
      const leaf = path.split(".").pop()!;
      const near = [...known].filter((k) => k.endsWith(`.${leaf}`) || k === leaf).slice(0, 3);
      throw new UsageError(
        `${flag}: unknown field "${path}" for ${what}${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
      );
    }
  }
  return [...paths];
}

/** --sort <path>[:asc|desc] */
export function parseSortFlag(text: string | undefined, shape: Shape, what: string): SortSpec | undefined {
  if (text === undefined) return undefined;
  const m = /^([^:]+?)(?::(asc|desc))?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--sort: expected <field>[:asc|desc], got ${JSON.stringify(text)}`);
  const path = m[1]!;
  if (!dotPaths(shape).includes(path)) throw new UsageError(`--sort: unknown field "${path}" for ${what}`);
  return { path, descending: m[2]?.toLowerCase() === "desc" };
}

/** --where <path><op><value>, repeatable: each condition read, its path checked like --fields'. */
export function parseWhereFlags(
  texts: readonly string[] | undefined,
  shape: Shape,
  what: string,
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
  );
  return conditions;
}
