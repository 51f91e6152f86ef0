import * as z from "zod/mini";
import { CHAINS, type Chain } from "../contract/api.js";
import { formatBytes, MAX_BODY_CAP_BYTES, MAX_ITEM_LENGTH, MIN_BODY_CAP_BYTES } from "../contract/limits.js";
import { UsageError } from "../errors.js";
import { readLength } from "./durations.js";
import { OUTPUT_FORMATS, type OutputFormat } from "./formats.js";

// The kinds of value flags and settings take, as zod schemas with messages a user can act on. A
// failure names the flag (or the setting) it came from: see parseValue. zod/mini: the same checks
// as zod's chained API, a fifth of the code to load at every start.

// zod compiles an object schema's checks with `new Function` the first time it parses: worth it for
// a server parsing millions of values, not for a run that parses a few (and no code is made from
// strings at all). Set here, the first module that uses zod.
z.config({ jitless: true });

/** A schema whose output is T. */
export type Schema<T = unknown> = z.ZodMiniType<T>;

/** Inside a transform: records the problem and gives the value that stops the parse. */
function invalid(ctx: { issues: unknown[] }, input: unknown, message: string): never {
  ctx.issues.push({ code: "custom", message, input });
  return z.NEVER;
}

const trimmed = () => z.string().check(z.trim());

/**
 * A schema made the first time it checks a value: the schemas below are module constants, and
 * building them all at every start costs more than the one or two a run uses.
 */
function onFirstUse<T>(make: () => Schema<T>): Schema<T> {
  return z.lazy(make) as unknown as Schema<T>;
}

/**
 * What was wrong with a value, and the value as given unless the message already quotes it:
 * `expected an amount such as 0.01, got "abc"`.
 */
export function withValue(message: string, value: unknown): string {
  const quoted = JSON.stringify(value);
  if (typeof value !== "string" || message.includes("got ") || message.includes(quoted)) return message;
  // A value of megabytes (an agent's argument, a variable) is named by its start and its length.
  const shown =
    quoted.length > MAX_SHOWN
      ? `${quoted.slice(0, MAX_SHOWN)}… (${Array.from(value).length} characters)`
      : quoted;
  return `${message}, got ${shown}`;
}

/** The most of a bad value's JSON a message quotes. */
const MAX_SHOWN = 80;

/**
 * Runs a schema over a value; a failure is a usage error naming where the value came from and the
 * value (a secret's never: `shown` false).
 */
export function parseValue<T>(source: string, schema: Schema<T>, value: unknown, shown = true): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? "invalid value";
  throw new UsageError(`${source}: ${shown ? withValue(message, value) : message}`);
}

/** A whole number from `min` (and at most `max`), written in digits. */
export function wholeNumber(what: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .pipe(trimmed().check(z.regex(/^\d+$/, `expected a whole number ${what}`)), z.transform(Number))
    .check(
      z.refine((value) => value >= min, `expected a whole number ${what}`),
      z.refine((value) => Number.isSafeInteger(value) && value <= max, `too large (at most ${max})`),
    );
}

/** The longest --timeout or --watch interval: a day (a timer holds up to 24.8 days). */
export const MAX_DURATION_MS = 24 * 3_600_000;

/** A length of time in the one grammar (flags/durations.ts), to milliseconds, within limits. */
function lengthSchema(limits: Parameters<typeof readLength>[1]) {
  return onFirstUse(() =>
    z.pipe(
      trimmed(),
      z.transform((text: string, ctx) => {
        const ms = readLength(text, limits);
        return typeof ms === "number" ? ms : invalid(ctx, text, ms);
      }),
    ),
  );
}

/** --timeout and --watch: 30s, 500ms, 2m, 1h or a plain number of seconds, to milliseconds. */
export const durationSchema = lengthSchema({
  what: "a span",
  min: 1,
  max: MAX_DURATION_MS,
  maxText: "24h",
  why: "a request or a refresh is not waited for longer than a day",
});

/** The most a cache entry may answer for: a week. */
export const MAX_TTL_MS = 7 * 24 * 3_600_000;

/** A cache's time to live: "90s", "10m", "1h", "1d", "1w" or seconds; "0" turns the cache off. */
export const ttlSchema = lengthSchema({
  what: "a time to live (0 turns the cache off)",
  min: 0,
  max: MAX_TTL_MS,
  maxText: "7d",
  why: "market data a week old is no answer; 0 turns the cache off",
});

export const urlSchema = onFirstUse(() =>
  z.pipe(
    trimmed().check(
      z.refine((text) => {
        try {
          const url = new URL(text);
          return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
        } catch {
          return false;
        }
      }, "expected an http(s) URL such as https://api.dapplooker.com"),
    ),
    z.transform((url: string) => url.replace(/\/+$/, "")),
  ),
);

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
export const sizeSchema = onFirstUse(() =>
  z.pipe(
    trimmed(),
    z.transform((text: string, ctx) => {
      const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
      const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
      const bytes = m && unit ? Math.floor(Number(m[1]) * unit) : Number.NaN;
      if (!(bytes >= MIN_BODY_CAP_BYTES && bytes <= MAX_BODY_CAP_BYTES)) {
        const range = `${formatBytes(MIN_BODY_CAP_BYTES, true)} to ${formatBytes(MAX_BODY_CAP_BYTES, true)}`;
        return invalid(
          ctx,
          text,
          `expected a size from ${range} such as 64MB or 512KiB, got ${JSON.stringify(text)}`,
        );
      }
      return bytes;
    }),
  ),
);

/** "100/min", "100/m" or "100": requests per minute. */
export const rateSchema = onFirstUse(() =>
  z
    .pipe(
      trimmed().check(z.regex(/^\d+(\.\d+)?(\/(min|m|minute))?$/, "expected a rate such as 100/min")),
      z.transform((text: string) => Number.parseFloat(text)),
    )
    .check(
      z.refine((rate) => rate > 0, "the rate must be above 0"),
      // Slower than this, the gap between requests passes what a timer holds (24.8 days) and the
      // limiter would stop limiting: the slowest rate is one request every 1,000 minutes.
      z.refine(
        (rate) => rate === 0 || rate >= MIN_RATE_PER_MINUTE,
        `the slowest rate is ${MIN_RATE_PER_MINUTE}/min (one request every 1,000 minutes)`,
      ),
    ),
);

export const MIN_RATE_PER_MINUTE = 0.001;

/**
 * Splits comma-separated list flags (repeatable). A comma inside an item is written `\,`; every
 * item must be non-empty and at most 200 characters. Duplicates are dropped, first one kept.
 */
export function splitList(flag: string, values: string | readonly string[]): string[] {
  const items: string[] = [];
  for (const value of typeof values === "string" ? [values] : values) {
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

export const listSchema = (flag: string) =>
  z.pipe(
    z.union([z.string(), z.array(z.string())]),
    z.transform((values: string | string[]) => splitList(flag, values)),
  );

/** A fixed set of values, matched without regard to case; `what` names the value in messages. */
export function oneOf<const T extends readonly string[]>(
  values: T,
  what: string,
  expected?: string,
): Schema<T[number]> {
  return z.pipe(
    z.string(),
    z.transform((text: string, ctx) => {
      const found = values.find((v) => v.toLowerCase() === text.trim().toLowerCase());
      if (found !== undefined) return found;
      const message = expected
        ? `expected ${expected}, got ${JSON.stringify(text)}`
        : `unknown ${what} ${JSON.stringify(text)} (expected ${values.join(", ")})`;
      return invalid(ctx, text, message);
    }),
  );
}

export const chainSchema: Schema<Chain> = onFirstUse(() => oneOf(CHAINS, "chain"));
export const outputSchema: Schema<OutputFormat> = onFirstUse(() => oneOf(OUTPUT_FORMATS, "output format"));
