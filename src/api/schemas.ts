import * as z from "zod/mini";
import { type RecordKind, shapeOf } from "../contract/endpoints.js";
import {
  ASK_TOKEN_DETAIL,
  type FieldSpec,
  isAbsentOk,
  OPTIONAL_KEYS,
  type Shape,
} from "../contract/shapes.js";
import { isDecimalText } from "../numbers/decimal.js";

// Two readings of one description (contract/shapes.ts):
// - "client": what tokenintel requires of a live service that drifts: a record is an object, and
//   each section it has is an object (or null). Leaves are not checked: numbers come as
//   decimal strings or JSON numbers, fields get renamed and added, and every formatter takes any
//   value. Unknown fields pass through. Cheap enough for 100,000 records a run.
// - "strict": what the spec promises, field by field, used to hold the sandbox to the contract.
export type Mode = "client" | "strict";

/** A decimal string as the service writes one ("-12.50", "3"): read by the one reader of numbers. */
const decimalString = () => z.string().check(z.refine(isDecimalText, "expected a decimal string"));

type Schema = z.ZodMiniType;

function strictLeaf(spec: FieldSpec): Schema {
  const nullable = spec.endsWith("?");
  let schema: Schema;
  switch (spec.replace(/[?~]$/, "")) {
    case "decimal":
      schema = decimalString();
      break;
    case "numeric":
      schema = z.union([decimalString(), z.number()]);
      break;
    case "int":
      schema = z.int();
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
    case "numbers":
      schema = z.array(z.number());
      break;
    default:
      schema = z.string();
  }
  return nullable ? z.nullable(schema) : schema;
}

export function schemaFor(shape: Shape, mode: Mode): Schema {
  const entries: Record<string, Schema> = {};
  for (const [key, spec] of Object.entries(shape)) {
    if (mode === "client") {
      if (typeof spec === "object") entries[key] = z.optional(z.nullable(z.looseObject({})));
      continue;
    }
    const schema = typeof spec === "object" ? schemaFor(spec, mode) : strictLeaf(spec);
    entries[key] = OPTIONAL_KEYS.has(key) || isAbsentOk(spec) ? z.optional(schema) : schema;
  }
  return mode === "client" ? z.looseObject(entries) : z.strictObject(entries);
}

/**
 * A record must at least be an object whose sections are objects, whatever else drifts: its id may
 * be `id` or `token_id`, or missing (then it is shown, and not deduplicated).
 */
function recordSchema(shape: Shape, mode: Mode): Schema {
  return schemaFor(shape, mode);
}

/**
 * A page count in either key set the service uses (docs/api-notes.md, "Paging"): {page,
 * pageSize, pageCount, total} or {page, pageSize, totalPages, totalRecords}, numbers or numbers
 * sent as strings. Anything else reads as absent (then the pager finds the end by itself).
 */
function envelopeSchema() {
  const count = z.pipe(
    z.transform((value: unknown) =>
      typeof value === "string" && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value,
    ),
    z.catch(z.optional(z.int().check(z.nonnegative())), undefined),
  );
  const pagination = z.pipe(
    z.looseObject({
      page: count,
      pageSize: count,
      pageCount: count,
      total: count,
      totalPages: count,
      totalRecords: count,
    }),
    z.transform(
      ({ page, pageSize, pageCount, total, totalPages, totalRecords }): Pagination => ({
        page,
        pageSize,
        pageCount: pageCount ?? totalPages,
        total: total ?? totalRecords,
      }),
    ),
  );
  return z.looseObject({
    success: z.optional(z.boolean()),
    data: z.optional(z.unknown()),
    meta: z.catch(
      z.optional(z.nullable(z.looseObject({ pagination: z.catch(z.optional(pagination), undefined) }))),
      undefined,
    ),
  });
}

/** A page's envelope, its schema built when the first page is read (not at every start). */
export const envelope = z.lazy(envelopeSchema);
export interface Pagination {
  page?: number;
  pageSize?: number;
  pageCount?: number;
  total?: number;
}

/** "any": records of an endpoint the spec does not describe (`tokenintel api --paginate`). */
export type { RecordKind } from "../contract/endpoints.js";

const cache = new Map<string, Schema>();
export function recordSchemaFor(kind: RecordKind, mode: Mode = "client"): Schema {
  const shape = shapeOf(kind);
  if (!shape) return z.unknown();
  const key = `${kind}:${mode}`;
  let schema = cache.get(key);
  if (!schema) {
    schema = recordSchema(shape, mode);
    cache.set(key, schema);
  }
  return schema;
}

export function askDataSchema(mode: Mode = "client"): Schema {
  const detail = schemaFor(ASK_TOKEN_DETAIL, mode);
  if (mode === "strict") {
    return z.strictObject({
      questionId: z.string(),
      answerId: z.string(),
      nlpResponse: z.string(),
      tokenDetails: z.nullable(z.array(detail)),
    });
  }
  const maybe = (schema: Schema) => z.optional(z.nullable(schema));
  return z.looseObject({
    questionId: maybe(z.union([z.string(), z.number()])),
    answerId: maybe(z.union([z.string(), z.number()])),
    nlpResponse: maybe(z.string()),
    tokenDetails: maybe(z.array(detail)),
  });
}

/** Names the first problem: `data[3].token_metrics.usd_price: expected ...`. */
export function describeIssue(error: { issues: readonly z.core.$ZodIssue[] }, prefix = ""): string {
  const issue = error.issues[0];
  if (!issue) return "invalid value";
  let path = prefix;
  for (const part of issue.path) {
    path += typeof part === "number" ? `[${part}]` : path ? `.${String(part)}` : String(part);
  }
  return `${path || "body"}: ${issue.message}`;
}
