import * as z from "zod";
import { UsageError } from "../errors.js";
import { type Flag, type FlagKind, type FlagTable, type FlagValues, longName } from "./table.js";
import {
  durationSchema,
  listSchema,
  oneOf,
  rateSchema,
  sizeSchema,
  ttlSchema,
  urlSchema,
  wholeNumber,
} from "./values.js";

// The zod side of the flag tables: one schema per kind of value, a zod object per table, and the
// parse that turns commander's raw strings into typed options or a usage error naming the flag.

const AMOUNT = z
  .string()
  .trim()
  .regex(/^\d+(\.\d{1,6})?$/, "expected an amount such as 0.01 (at most 6 decimals)");

const SHARE = z
  .string()
  .regex(/^(0(\.\d+)?|1(\.0+)?)$/, "expected a rate from 0 to 1")
  .transform(Number);

function schemaOf(flag: Flag): z.ZodType {
  const kind: FlagKind = flag.kind;
  switch (kind) {
    case "switch":
      return z.boolean();
    case "text":
      return z.string();
    case "list":
      return listSchema(longName(flag));
    case "optionalList":
      return z.union([z.literal(true), listSchema(longName(flag))]);
    case "repeated":
      return z.array(z.string());
    case "choice":
      return oneOf(flag.choices ?? [], flag.what ?? "value", flag.expected);
    case "count":
      return wholeNumber(flag.what ?? "of 1 or more", 1, flag.max);
    case "whole":
      return wholeNumber(flag.what ?? "of 0 or more", 0, flag.max);
    case "duration":
      return durationSchema;
    case "optionalDuration":
      return orTrue(durationSchema);
    case "rate":
      return rateSchema;
    case "url":
      return urlSchema;
    case "amount":
      return AMOUNT;
    case "share":
      return SHARE;
    case "size":
      return sizeSchema;
    case "ttl":
      return ttlSchema;
  }
}

/** A flag whose value may be left out: true, or the value with its own message (a union's is "Invalid input"). */
function orTrue(schema: z.ZodType): z.ZodType {
  return z.unknown().transform((value, ctx) => {
    if (value === true) return true;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    ctx.addIssue({ code: "custom", message: result.error.issues[0]?.message ?? "invalid value" });
    return z.NEVER;
  });
}

/** A flag with a --no- spelling: false, or the flag's own value with the flag's own message. */
function orFalse(schema: z.ZodType): z.ZodType {
  return z.unknown().transform((value, ctx) => {
    if (value === false) return false;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    ctx.addIssue({ code: "custom", message: result.error.issues[0]?.message ?? "invalid value" });
    return z.NEVER;
  });
}

const objects = new WeakMap<FlagTable, z.ZodObject>();

/** The zod object that checks a table's options. */
export function schemaFor(table: FlagTable): z.ZodObject {
  let schema = objects.get(table);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, flag] of Object.entries(table)) {
      const value = schemaOf(flag);
      shape[key] = (flag.negation ? orFalse(value) : value).optional();
    }
    schema = z.object(shape);
    objects.set(table, schema);
  }
  return schema;
}

/**
 * Checks commander's raw options against the table. Keys that are not the table's (another table's
 * flags on the same command) pass through untouched; the first bad value is a usage error.
 */
export function parseFlags<T extends FlagTable>(table: T, raw: Record<string, unknown>): FlagValues<T> {
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(table)) if (raw[key] !== undefined) own[key] = raw[key];
  const result = schemaFor(table).safeParse(own);
  if (result.success) return result.data as FlagValues<T>;
  const issue = result.error.issues[0]!;
  const key = String(issue.path[0]);
  const flag = table[key];
  throw new UsageError(`${flag ? longName(flag) : key}: ${issue.message}`);
}
