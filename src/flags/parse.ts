import * as z from "zod/mini";
import { UsageError } from "../errors.js";
import { type Flag, type FlagKind, type FlagTable, type FlagValues, longName } from "./table.js";
import {
  durationSchema,
  listSchema,
  oneOf,
  rateSchema,
  type Schema,
  sizeSchema,
  ttlSchema,
  urlSchema,
  wholeNumber,
  withValue,
} from "./values.js";

// The zod side of the flag tables: one schema per kind of value, made the first time a run gives
// that flag, and the parse that turns commander's raw strings into typed options or a usage error
// naming the flag. A run checks the flags it was given, not the ~60 a command knows.

const amount = () =>
  z
    .string()
    .check(z.trim(), z.regex(/^\d+(\.\d{1,6})?$/, "expected an amount such as 0.01 (at most 6 decimals)"));

const share = () =>
  z.pipe(
    z.string().check(z.regex(/^(0(\.\d+)?|1(\.0+)?)$/, "expected a rate from 0 to 1")),
    z.transform(Number),
  );

/** Text of at most `max` characters (an agent's tool call is not bounded by a command line's length). */
const textOfAtMost = (max: number) =>
  z.string().check(z.refine((text) => Array.from(text).length <= max, `longer than ${max} characters`));

function schemaOf(flag: Flag): Schema {
  const kind: FlagKind = flag.kind;
  switch (kind) {
    case "switch":
      return z.boolean();
    case "text":
      return flag.max === undefined ? z.string() : textOfAtMost(flag.max);
    case "list":
      return listSchema(longName(flag));
    case "optionalList":
      return listSchema(longName(flag));
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
      return durationSchema;
    case "rate":
      return rateSchema;
    case "url":
      return urlSchema;
    case "amount":
      return amount();
    case "share":
      return share();
    case "size":
      return sizeSchema;
    case "ttl":
      return ttlSchema;
  }
}

const schemas = new WeakMap<Flag, Schema>();

/**
 * The schema that checks one flag's value (parseFlags takes the bare true and false of flags that
 * allow them); a setting's value from the environment or the store is checked by its flag's schema.
 */
export function schemaForFlag(flag: Flag): Schema {
  let schema = schemas.get(flag);
  if (!schema) {
    schema = schemaOf(flag);
    schemas.set(flag, schema);
  }
  return schema;
}

/**
 * Checks commander's raw options against the table, in the table's order. Keys that are not the
 * table's (another table's flags on the same command) are left out; the first bad value is a usage
 * error naming its flag.
 */
export function parseFlags<T extends FlagTable>(table: T, raw: Record<string, unknown>): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const [key, flag] of Object.entries(table)) {
    const value = raw[key];
    if (value === undefined) continue;
    // A --no- spelling gives false; a flag whose value may be left out (--watch, --fields) gives true.
    const optional = flag.kind === "optionalDuration" || flag.kind === "optionalList";
    if ((value === false && flag.negation) || (value === true && optional)) {
      values[key] = value;
      continue;
    }
    const result = schemaForFlag(flag).safeParse(value);
    if (!result.success) {
      // The value as typed, unless the message already quotes it: "--limit: expected ..., got "abc"".
      throw new UsageError(
        `${longName(flag)}: ${withValue(result.error.issues[0]?.message ?? "invalid value", value)}`,
      );
    }
    values[key] = result.data;
  }
  return values as FlagValues<T>;
}
