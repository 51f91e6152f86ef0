import { UsageError } from "../../errors.js";
import { back, readWhen, type Span, spanWords } from "../../flags/durations.js";

// --since and --until: a date (YYYY-MM-DD) or a span counted back from now in the grammar every
// duration flag reads (flags/durations.ts): 90d, 12w, 6mo, 1y, 48h. History is daily: a span of
// minutes or seconds is refused, saying so (6m was six months here once; it is six minutes).

/** The furthest back a span reaches: no token has a history of more than 20 years. */
const MAX_YEARS = 20;

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Why a span below a day makes no sense for daily history, or undefined when it does. */
function subDaily(span: Span, text: string): string | undefined {
  if (span.unit === "m")
    return `"${text}" is ${spanWords(span)}, and history is daily: for ${span.amount} month${span.amount === 1 ? "" : "s"} write ${span.amount}mo`;
  if (span.unit === "s" || span.unit === "ms")
    return `"${text}" is ${spanWords(span)}, and history is daily: give days (90d), weeks (12w), months (6mo) or years (1y)`;
  return undefined;
}

/** A flag's value as a UTC day, or exit 2 naming the flag and the value. */
export function readDay(flag: string, value: string, now = Date.now()): string {
  const when = readWhen(flag, value);
  if (when === undefined)
    throw new UsageError(
      `${flag}: "${value}" is neither a date (YYYY-MM-DD) nor a span back from today (e.g. 90d, 12w, 6mo, 1y)`,
    );
  if (when.kind === "date") return when.day;
  const refused = subDaily(when, value.trim());
  if (refused) throw new UsageError(`${flag}: ${refused}`);
  const at = back(now, when);
  if (!(at >= back(now, { kind: "span", amount: MAX_YEARS, unit: "y" })))
    throw new UsageError(
      `${flag}: "${value}" reaches back more than ${MAX_YEARS} years, further than any token's history`,
    );
  return isoDay(at);
}

/**
 * Both ends, checked together: --since after --until is exit 2 naming both, and so is a --since
 * after today (UTC), which no day of any history lies after (an empty series said nothing).
 */
export function readRange(
  since: string | undefined,
  until: string | undefined,
  now = Date.now(),
): { from: string | undefined; to: string | undefined } {
  const from = since === undefined ? undefined : readDay("--since", since, now);
  const today = isoDay(now);
  if (from !== undefined && from > today)
    throw new UsageError(
      `--since: ${JSON.stringify(since)} is after today (${today}, UTC): no day after today has a history yet`,
    );
  const to = until === undefined ? undefined : readDay("--until", until, now);
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError(`--since ${from} is after --until ${to}: nothing lies between them`);
  return { from, to };
}
