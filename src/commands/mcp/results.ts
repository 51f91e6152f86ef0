import { IDENTITY_PATHS } from "../../contract/identity.js";
import { getPath } from "../../json/dot-paths.js";
import { LosslessNumber } from "../../json/exact.js";
import { sanitizeBlock, sanitizeInline } from "../../terminal/sanitize.js";
import { chooseColumns, type DataCommandDefinition } from "../data/definition.js";
import type { ToolSpec } from "./tools.js";

// What a tool answers, for an agent: the service's values made inert (no escape sequences or
// control characters, in keys or values), numbers exact, a compact set of fields unless others
// are asked for, and JSON Schemas of it all (each tool's outputSchema) derived from the same
// record tables the command line's --fields and --where read.

/** A JSON Schema, as the MCP SDK takes one. */
export type JsonSchema = Record<string, unknown>;

/**
 * A value from the service as an agent gets it: strings without escape sequences or control
 * characters (line breaks kept), keys likewise, and numbers JavaScript cannot hold exactly written
 * with every digit (JSON.rawJSON, Node 21+; before it, the digits as a string).
 */
export function forAgent(value: unknown): unknown {
  if (typeof value === "string") return agentText(value);
  if (value instanceof LosslessNumber) {
    const raw = value.raw;
    const asNumber = Number(raw);
    if (String(asNumber) === raw) return asNumber;
    const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
    return rawJSON ? rawJSON(raw) : raw;
  }
  if (Array.isArray(value)) return value.map(forAgent);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        sanitizeInline(key).replace(INVISIBLE, "").slice(0, MAX_TEXT),
        forAgent(item),
      ]),
    );
  return value;
}

/** The longest string an answer carries: a longer one (a name of megabytes) is cut, and says so. */
export const MAX_TEXT = 8_000;

/**
 * Characters that show nothing yet change what text says or how it compares: soft hyphen, zero
 * width and direction marks, word joiners, line and paragraph separators, the BOM, Arabic letter
 * mark, and the tag characters (invisible text). A key split by one would not be masked.
 */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u2060-\u2064\ufeff]|\udb40[\udc00-\udc7f]/g;

function agentText(text: string): string {
  const clean = sanitizeBlock(text).replace(INVISIBLE, "");
  if (clean.length <= MAX_TEXT) return clean;
  return `${clean.slice(0, MAX_TEXT)}… (${clean.length - MAX_TEXT} more characters cut)`;
}

/**
 * The fields a record gets by default: the registry's compact set for the tool, else who the token
 * is and the columns of the command's default table view (the figures a person sees first).
 */
export function compactFields(
  tool: Pick<ToolSpec, "compact">,
  definition: DataCommandDefinition,
  records: unknown[],
): string[] {
  if (tool.compact?.length) return [...tool.compact];
  const layout = definition.table.views[definition.table.defaultView]!;
  const columns = chooseColumns(layout.columns, records).filter((column) => !column.compute);
  // Each part of the identity once: the first of its paths the records carry.
  const present = (paths: readonly string[]) =>
    paths.find((p) => records.some((r) => getPath(r, p) !== undefined));
  const identity = (["id", "symbol", "name", "address"] as const).flatMap(
    (part) => present(IDENTITY_PATHS[part]) ?? [],
  );
  return [...new Set([...identity, ...columns.flatMap((c) => c.paths)])];
}

const str = { type: "string" };
const int = { type: "integer" };
const list = (items: JsonSchema) => ({ type: "array", items });
/**
 * A value that may be null, as branches of one type each: `type: [..., "null"]` is JSON Schema too,
 * but clients that map tool schemas onto a one-type dialect (Gemini's function declarations) drop
 * or refuse it (the inspector's --strict warned 17 times).
 */
const orNull = (type: string) => ({ anyOf: [{ type }, { type: "null" }] });
const textOrNull = orNull("string");

/** What every answer may carry beside its data. */
const COMMON: Record<string, JsonSchema> = {
  notes: list(str),
  cost: { type: "object", properties: { payments: int, amount: str, asset: str, network: str } },
};

/**
 * A data tool's answer: its records (each with the fields asked for: `fields: []` lists the paths
 * a record can carry, so the schema need not), how many, whether more exist and the cursor.
 */
export function recordsSchema(): JsonSchema {
  return {
    type: "object",
    properties: {
      records: list({ type: "object" }),
      count: int,
      more: { type: "boolean" },
      next_cursor: str,
      fields: list(str),
      pages: { type: "object", properties: { read: int, total: orNull("integer") } },
      missing: list(str),
      ...COMMON,
    },
    required: ["records", "count", "more"],
  };
}

/** The answer of a tool that runs a command whole (check, history, ask). */
function answerSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: "object", properties: { ...properties, ...COMMON }, required };
}

/** Records of a command's own making, who each is first. */
function commandRecords(own: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return { records: list({ type: "object", properties: own }), count: int, missing: list(str) };
}

/** A tool's outputSchema: a data tool's records, else its command's answer; every property typed. */
export function outputSchemaOf(tool: Pick<ToolSpec, "name">, definition: unknown): JsonSchema {
  if (definition) return recordsSchema();
  switch (tool.name) {
    case "check":
      return answerSchema(
        commandRecords({
          symbol: textOrNull,
          name: textOrNull,
          address: textOrNull,
          id: textOrNull,
          level: { type: "string", enum: ["low", "medium", "high"] },
          reasons: list({ type: "object" }),
        }),
        ["records", "count"],
      );
    case "history":
      return answerSchema(
        commandRecords({
          token_id: textOrNull,
          token_symbol: textOrNull,
          token_address: textOrNull,
          chain: str,
          days: list({ type: "object" }),
        }),
        ["records", "count"],
      );
    default:
      return answerSchema(
        {
          answer: { type: "object", properties: { by: { type: "string", const: "service" }, text: str } },
          question_id: textOrNull,
          answer_id: textOrNull,
          token_details: list({ type: "object" }),
          tokens: list({ type: "object" }),
        },
        ["answer"],
      );
  }
}
