import * as z from "zod";
import {
  AGENT_RECORD,
  ASK_TOKEN_DETAIL,
  DIRECTORY_RECORD,
  type FieldSpec,
  isAbsentOk,
  MARKET_RECORD,
  OPTIONAL_KEYS,
  type Shape,
  TA_RECORD,
} from "./fields.js";

// Two readings of one description (fields.ts):
// - "client": what tokenintel requires of a live service that drifts: a record is an object, and
//   each section it has is an object (or null). Leaves are not checked: numbers come as
//   decimal strings or JSON numbers, fields get renamed and added, and every formatter takes any
//   value. Unknown fields pass through. Cheap enough for 100,000 records a run.
// - "strict": what the spec promises, field by field, used to hold the sandbox to the contract.
export type Mode = "client" | "strict";

const DECIMAL = /^-?\d+(\.\d+)?$/;

function strictLeaf(spec: FieldSpec): z.ZodType {
  const nullable = spec.endsWith("?");
  let schema: z.ZodType;
  switch (spec.replace(/[?~]$/, "")) {
    case "decimal":
      schema = z.string().regex(DECIMAL, "expected a decimal string");
      break;
    case "numeric":
      schema = z.union([z.string().regex(DECIMAL, "expected a decimal string"), z.number()]);
      break;
    case "int":
      schema = z.number().int();
      break;
    case "number":
      schema = z.number();
      break;
    case "bool":
      schema = z.boolean();
      break;
    case "url":
      schema = z.url();
      break;
    default:
      schema = z.string();
  }
  return nullable ? schema.nullable() : schema;
}

export function schemaFor(shape: Shape, mode: Mode): z.ZodObject {
  const entries: Record<string, z.ZodType> = {};
  for (const [key, spec] of Object.entries(shape)) {
    if (mode === "client") {
      if (typeof spec === "object") entries[key] = z.looseObject({}).nullable().optional();
      continue;
    }
    const schema = typeof spec === "object" ? schemaFor(spec, mode) : strictLeaf(spec);
    entries[key] = OPTIONAL_KEYS.has(key) || isAbsentOk(spec) ? schema.optional() : schema;
  }
  return mode === "client" ? z.looseObject(entries) : z.strictObject(entries);
}

/**
 * A record must at least be an object whose sections are objects, whatever else drifts: its id may
 * be `id` or `token_id`, or missing (then it is shown, and not deduplicated).
 */
function recordSchema(shape: Shape, mode: Mode): z.ZodType {
  return schemaFor(shape, mode);
}

/**
 * A page count in either key set the service uses: {page, pageSize, pageCount, total} (api.md) or
 * {page, pageSize, totalPages, totalRecords} (another endpoint, live-notes), numbers or numbers
 * sent as strings. Anything else reads as absent (then the pager finds the end by itself).
 */
const count = z.preprocess(
  (v) => (typeof v === "string" && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v),
  z.number().int().nonnegative().optional().catch(undefined),
);
const pagination = z
  .looseObject({
    page: count,
    pageSize: count,
    pageCount: count,
    total: count,
    totalPages: count,
    totalRecords: count,
  })
  .transform(
    ({ page, pageSize, pageCount, total, totalPages, totalRecords }): Pagination => ({
      page,
      pageSize,
      pageCount: pageCount ?? totalPages,
      total: total ?? totalRecords,
    }),
  );

export const envelope = z.looseObject({
  success: z.boolean().optional(),
  data: z.unknown().optional(),
  meta: z
    .looseObject({ pagination: pagination.optional().catch(undefined) })
    .nullable()
    .optional()
    .catch(undefined),
});
export interface Pagination {
  page?: number;
  pageSize?: number;
  pageCount?: number;
  total?: number;
}

/** "any": records of an endpoint the spec does not describe (`tokenintel api --paginate`). */
export type RecordKind = "market" | "directory" | "agents" | "ta" | "any";
const SHAPES: Record<Exclude<RecordKind, "any">, Shape> = {
  market: MARKET_RECORD,
  directory: DIRECTORY_RECORD,
  agents: AGENT_RECORD,
  ta: TA_RECORD,
};

const cache = new Map<string, z.ZodType>();
export function recordSchemaFor(kind: RecordKind, mode: Mode = "client"): z.ZodType {
  if (kind === "any") return z.unknown();
  const key = `${kind}:${mode}`;
  let schema = cache.get(key);
  if (!schema) {
    schema = recordSchema(SHAPES[kind], mode);
    cache.set(key, schema);
  }
  return schema;
}

export function askDataSchema(mode: Mode = "client"): z.ZodType {
  const detail = schemaFor(ASK_TOKEN_DETAIL, mode);
  if (mode === "strict") {
    return z.strictObject({
      questionId: z.string(),
      answerId: z.string(),
      nlpResponse: z.string(),
      tokenDetails: z.array(detail).nullable(),
    });
  }
  return z.looseObject({
    questionId: z.union([z.string(), z.number()]).nullable().optional(),
    answerId: z.union([z.string(), z.number()]).nullable().optional(),
    nlpResponse: z.string().nullable().optional(),
    tokenDetails: z.array(detail).nullable().optional(),
  });
}

/** Names the first problem: `data[3].token_metrics.usd_price: expected ...`. */
export function describeIssue(error: z.ZodError, prefix = ""): string {
  const issue = error.issues[0];
  if (!issue) return "invalid value";
  let path = prefix;
  for (const part of issue.path) {
    path += typeof part === "number" ? `[${part}]` : path ? `.${String(part)}` : String(part);
  }
  return `${path || "body"}: ${issue.message}`;
}
