import { UsageError } from "../errors.js";

// One grammar for every duration and point in time a flag takes (--timeout, --watch, --cache,
// history --since/--until, payments --since): a number and a unit, `ms`, `s`, `m` (minutes), `h`,
// `d`, `w`, `mo` (months), `y`, a plain number of seconds, or a date (YYYY-MM-DD, a UTC day). The
// grammar is read here once; each flag then refuses what makes no sense for it, saying why.

export type SpanUnit = "ms" | "s" | "m" | "h" | "d" | "w" | "mo" | "y";

/** A value as read: a span (an amount of a unit) or a UTC day. */
export type When =
  | { kind: "span"; amount: number; unit: SpanUnit }
  | { kind: "date"; day: string; ms: number };
export type Span = Extract<When, { kind: "span" }>;

/** Units of a fixed length, in milliseconds; months and years are counted on the calendar. */
const FIXED_MS: Record<Exclude<SpanUnit, "mo" | "y">, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

const UNIT_WORDS: Record<SpanUnit, string> = {
  ms: "milliseconds",
  s: "seconds",
  m: "minutes",
  h: "hours",
  d: "days",
  w: "weeks",
  mo: "months",
  y: "years",
};

/** Spans a message shows as examples, with their length (a month and a year at their shortest). */
const EXAMPLES: ReadonlyArray<readonly [string, number]> = [
  ["30s", 30_000],
  ["10m", 600_000],
  ["2h", 7_200_000],
  ["7d", 7 * 86_400_000],
  ["2w", 14 * 86_400_000],
  ["6mo", 181 * 86_400_000],
  ["1y", 365 * 86_400_000],
];

/** The grammar in a message: spans a value may be, none longer than `max` ms (a flag's own bound). */
export function grammar(max = Number.POSITIVE_INFINITY): string {
  const shown = EXAMPLES.filter(([, ms]) => ms <= max).map(([text]) => text);
  const units = shown.includes("6mo") ? "m is minutes, mo months" : "m is minutes";
  return `such as ${shown.slice(0, -1).join(", ")} or ${shown.at(-1)} (${units})`;
}

const SPAN = /^(\d+(?:\.\d+)?)(ms|s|mo|m|h|d|w|y)?$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads the grammar: a span (a plain number is seconds) or a date. Undefined when the text is
 * neither; a date the calendar does not have (2026-02-30) is a usage error naming the flag.
 */
export function readWhen(flag: string, text: string): When | undefined {
  const value = text.trim();
  const date = DATE.exec(value);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // 2026-02-30 parses as March 2: a day that does not exist is refused, not moved.
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
      throw new UsageError(`${flag}: "${text}" is not a day of the calendar (YYYY-MM-DD)`);
    return { kind: "date", day: value, ms };
  }
  const span = SPAN.exec(value);
  if (!span) return undefined;
  const unit = (span[2]?.toLowerCase() ?? "s") as SpanUnit;
  const amount = Number(span[1]);
  // Months and years are whole: the calendar has no half month.
  if ((unit === "mo" || unit === "y") && !Number.isInteger(amount)) return undefined;
  return { kind: "span", amount, unit };
}

/** A span's length in milliseconds; months and years as the calendar counts them back from `now`. */
export function spanMs(span: Span, now = Date.now()): number {
  if (span.unit !== "mo" && span.unit !== "y") return span.amount * FIXED_MS[span.unit];
  return now - back(now, span);
}

/**
 * The moment a span before `now` is; months and years on the calendar (a month before March 31
 * is March 3, as JavaScript dates count).
 */
export function back(now: number, span: Span): number {
  if (span.unit !== "mo" && span.unit !== "y") return now - span.amount * FIXED_MS[span.unit];
  const at = new Date(now);
  if (span.unit === "mo") at.setUTCMonth(at.getUTCMonth() - span.amount);
  else at.setUTCFullYear(at.getUTCFullYear() - span.amount);
  return at.getTime();
}

/** How a span reads in a message: "6m" → "6 minutes". */
export function spanWords(span: Span): string {
  const word = UNIT_WORDS[span.unit];
  return `${span.amount} ${span.amount === 1 ? word.replace(/s$/, "") : word}`;
}

/**
 * The message for text the grammar does not read: what was expected (a span no longer than `max`
 * ms, and `points` when a point in time is asked for: "a date (YYYY-MM-DD)"), and what was given.
 */
export function notInGrammar(text: string, points?: string, what = "a span", max?: number): string {
  return `expected ${what} ${grammar(max)}${points ? `, or ${points}` : ""}, got ${JSON.stringify(text)}`;
}

/** What a length of time may be for one flag: from `min` to `max` ms, and why no longer. */
export interface LengthLimits {
  /** What the value is, in messages: "a span", "a time to live". */
  what: string;
  min: number;
  max: number;
  /** `max` as the grammar writes it: "24h". */
  maxText: string;
  why: string;
}

/**
 * A length of time for a flag that waits or keeps (--timeout, --watch, --cache), in milliseconds,
 * or the message saying why the text is not one: a date is a point in time, not a length.
 */
export function readLength(text: string, limits: LengthLimits): number | string {
  // Any date, even one the calendar lacks (2026-02-30), is refused as a date, not as a bad day.
  if (DATE.test(text.trim()))
    return `a date is a day, not a length of time: give a span such as 30s or 10m, got ${JSON.stringify(text)}`;
  const span = readWhen("", text);
  // Its examples are lengths the flag takes: --timeout's hint does not offer 7d and then refuse it.
  if (span?.kind !== "span") return notInGrammar(text, undefined, limits.what, limits.max);
  const ms = Math.round(spanMs(span));
  if (!(ms <= limits.max))
    return `too long: at most ${limits.maxText} (${limits.why}), got ${JSON.stringify(text)}`;
  if (ms < limits.min) return `expected a length above 0, got ${JSON.stringify(text)}`;
  return ms;
}
