import type { FieldSpec, Shape } from "../../api/fields.js";
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
      Object.entries(value).map(([k, v]) => [
        sanitizeInline(k).replace(INVISIBLE, "").slice(0, MAX_TEXT),
        forAgent(v),
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
  const columns = chooseColumns(layout.columns, records).filter((c) => !c.compute);
  // Each part of the identity once: the first of its paths the records carry.
  const present = (paths: readonly string[]) =>
    paths.find((p) => records.some((r) => getPath(r, p) !== undefined));
  const identity = (["id", "symbol", "name", "address"] as const).flatMap(
    (part) => present(IDENTITY_PATHS[part]) ?? [],
  );
  return [...new Set([...identity, ...columns.flatMap((c) => c.paths)])];
}

const KIND_WORDS: Record<string, string> = {
  string: "text",
  url: "a URL",
  decimal: "an exact decimal (a string of digits, or a number)",
  numeric: "a decimal string or a number",
  int: "a whole number",
  number: "a number",
  bool: "true or false",
};

/** A record table as a JSON Schema that documents every field and refuses none (the service varies). */
export function shapeSchema(shape: Shape): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, spec] of Object.entries(shape)) {
    properties[key] =
      typeof spec === "object" ? { description: `section: ${key}`, ...shapeSchema(spec) } : leafSchema(spec);
  }
  return { properties };
}

function leafSchema(spec: FieldSpec): JsonSchema {
  const kind = spec.replace(/[?~]$/, "");
  return { description: KIND_WORDS[kind] ?? kind };
}

const text = { type: "string" };
const strings = { type: "array", items: text };

/** What every answer may carry beside its data. */
const COMMON: Record<string, JsonSchema> = {
  notes: { ...strings, description: "tokenintel's own notes on this answer (not the service's text)" },
  cost: {
    type: "object",
    description: "what this call paid, when the server pays per request (x402)",
    properties: {
      payments: { type: "integer" },
      amount: text,
      asset: text,
      network: text,
    },
  },
};

/** A data tool's answer: records, how many, whether more exist and the cursor that continues. */
export function recordsSchema(shape: Shape): JsonSchema {
  return {
    type: "object",
    properties: {
      records: { type: "array", items: { type: "object", ...shapeSchema(shape) } },
      count: { type: "integer", description: "records in this answer" },
      more: { type: "boolean", description: "the listing goes on past this answer" },
      next_cursor: { ...text, description: "pass as cursor, with the same other arguments, to continue" },
      fields: {
        ...strings,
        description: "the dot paths each record holds here (or, for fields: [], every path)",
      },
      pages: {
        type: "object",
        properties: { read: { type: "integer" }, total: { type: ["integer", "null"] } },
      },
      missing: { ...strings, description: "items of tickers, addresses or ids that matched no token" },
      ...COMMON,
    },
    required: ["records", "count", "more"],
  };
}

/** The answer of a tool that runs a command whole (check, history, ask). */
export function answerSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: "object", properties: { ...properties, ...COMMON }, required };
}

/** A tool's outputSchema: its records' table for a data tool, else its command's answer. */
export function outputSchemaOf(
  tool: Pick<ToolSpec, "name">,
  definition: DataCommandDefinition | undefined,
): JsonSchema {
  if (definition) return recordsSchema(definition.shape);
  const records = (items: JsonSchema) => ({
    records: { type: "array", items },
    count: { type: "integer" },
    missing: { type: "array", items: { type: "string" } },
  });
  switch (tool.name) {
    case "check":
      return answerSchema(
        records({
          type: "object",
          properties: {
            symbol: {},
            name: {},
            address: {},
            id: {},
            level: { enum: ["low", "medium", "high"] },
            reasons: {
              type: "array",
              description: "each rule that applies: rule, field, value, threshold, level",
            },
          },
        }),
        ["records", "count"],
      );
    case "history":
      return answerSchema(
        records({
          type: "object",
          description: "one token's days, oldest first",
          properties: {
            token_id: {},
            token_symbol: {},
            token_address: {},
            chain: {},
            days: { type: "array" },
          },
        }),
        ["records", "count"],
      );
    default:
      return answerSchema(
        {
          answer: {
            type: "object",
            description: "the service's answer: its text is the service's, not tokenintel's",
            properties: { by: { const: "service" }, text: { type: "string" } },
          },
          question_id: {},
          answer_id: {},
          token_details: {
            type: "array",
            description: "the tokens the answer names, as the service sent them",
          },
          tokens: {
            type: "array",
            description: "with explain: each named token's market figures and risk verdict",
          },
        },
        ["answer"],
      );
  }
}
