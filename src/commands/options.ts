import * as z from "zod";
import { dotPaths, type Shape } from "../api/fields.js";
import { formatBytes, MAX_BODY_CAP_BYTES, MIN_BODY_CAP_BYTES } from "../api/limits.js";
import { UsageError } from "../errors.js";
import { OUTPUT_FORMATS, type OutputFormat } from "../output/writers.js";

// Flag values arrive from commander as strings; each is checked here, with a message that names
// the flag, before any request is made.

export const CHAINS = ["base", "solana"] as const;
export type Chain = (typeof CHAINS)[number];
export const MAX_ITEM_LENGTH = 200;

/** Runs a zod schema over a flag value; failures become usage errors naming the flag. */
export function parseFlag<T>(flag: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? "invalid value";
  throw new UsageError(`${flag}: ${message}`);
}

export const chainSchema = z.enum(CHAINS, {
  error: (issue) => `unknown chain ${JSON.stringify(issue.input)} (expected ${CHAINS.join(" or ")})`,
});

export const positiveInt = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `expected a whole number ${what}`)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= 1, `expected a whole number ${what}`);

export const nonNegativeInt = z
  .string()
  .trim()
  .regex(/^\d+$/, "expected a whole number of 0 or more")
  .transform(Number)
  .refine(Number.isSafeInteger, "number too large");

export const outputSchema = z.enum(OUTPUT_FORMATS as [OutputFormat, ...OutputFormat[]], {
  error: (issue) =>
    `unknown output format ${JSON.stringify(issue.input)} (expected ${OUTPUT_FORMATS.join(", ")})`,
});

/** "30s", "500ms", "2m" or a plain number of seconds, to milliseconds. */
export const durationSchema = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
    const ms = m ? Number(m[1]) * (m[2] === "ms" ? 1 : m[2] === "m" ? 60_000 : 1000) : Number.NaN;
    if (!m || !(ms >= 1) || ms > 3_600_000) {
      ctx.addIssue({
        code: "custom",
        message: `expected a duration such as 30s, 500ms or 2m, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    }
    return Math.round(ms);
  });

export const baseUrlSchema = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "expected an http(s) URL such as https://api.dapplooker.com")
  .transform((s) => s.replace(/\/+$/, ""));

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
};

/** "64MB" (10^6), "64MiB" or "64M" (2^20), "512KiB", or a plain number of bytes, to bytes. */
export const sizeSchema = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
    const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
    const bytes = m && unit ? Math.floor(Number(m[1]) * unit) : Number.NaN;
    if (!(bytes >= MIN_BODY_CAP_BYTES && bytes <= MAX_BODY_CAP_BYTES)) {
      const range = `${formatBytes(MIN_BODY_CAP_BYTES, true)} to ${formatBytes(MAX_BODY_CAP_BYTES, true)}`;
      ctx.addIssue({
        code: "custom",
        message: `expected a size from ${range} such as 64MB or 512KiB, got ${JSON.stringify(text)}`,
      });
      return z.NEVER;
    }
    return bytes;
  });

/** "100/min", "100/m" or "100": requests per minute. */
export const rateSchema = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?(\/(min|m|minute))?$/, "expected a rate such as 100/min")
  .transform((s) => Number.parseFloat(s))
  .refine((n) => n > 0, "the rate must be above 0");

/**
 * Splits comma-separated list flags (repeatable). A comma inside an item is written `\,`; every
 * item must be non-empty and at most 200 characters. Duplicates are dropped, first one kept.
 */
export function parseList(flag: string, values: string | string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const items: string[] = [];
  for (const value of Array.isArray(values) ? values : [values]) {
    for (const raw of value.split(/(?<!\\),/)) {
      const item = raw.replace(/\\,/g, ",").trim();
      if (!item) throw new UsageError(`${flag}: empty item in the list (${JSON.stringify(value)})`);
      if (Array.from(item).length > MAX_ITEM_LENGTH) {
        throw new UsageError(`${flag}: item longer than ${MAX_ITEM_LENGTH} characters`);
      }
      items.push(item);
    }
  }
  return [...new Set(items)];
}

/** --fields: dot paths, each one the record shape knows. */
export function parseFields(
  values: string | string[] | undefined,
  shape: Shape,
  what: string,
  flag = "--fields",
): string[] | undefined {
  const paths = parseList(flag, values);
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
  return paths;
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return previous ? [...previous, value] : [value];
}
