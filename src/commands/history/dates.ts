import { UsageError } from "../../errors.js";

// --since and --until: a date (YYYY-MM-DD) or a span counted back from today in UTC (90d, 6m, 1y).

const DAY_MS = 86_400_000;

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A flag's value as a UTC day, or exit 2 naming the flag and the value. */
export function readDay(flag: string, value: string, now = Date.now()): string {
  const text = value.trim();
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // 2026-02-30 parses as March 2: a day that does not exist is refused, not moved.
    if (!Number.isNaN(ms) && isoDay(ms) === text) return text;
    throw new UsageError(`${flag}: "${value}" is not a day of the calendar (YYYY-MM-DD)`);
  }
  const span = /^(\d{1,5})([dwmy])$/i.exec(text);
  if (span) {
    const n = Number(span[1]);
    const today = new Date(Math.floor(now / DAY_MS) * DAY_MS);
    const unit = span[2]!.toLowerCase();
    if (unit === "d" || unit === "w") return isoDay(today.getTime() - n * (unit === "w" ? 7 : 1) * DAY_MS);
    const back = new Date(today);
    if (unit === "m") back.setUTCMonth(back.getUTCMonth() - n);
    else back.setUTCFullYear(back.getUTCFullYear() - n);
    return isoDay(back.getTime());
  }
  throw new UsageError(
    `${flag}: "${value}" is neither a date (YYYY-MM-DD) nor a span back from today (e.g. 90d, 6m, 1y)`,
  );
}

/** Both ends, checked together: --since after --until is exit 2 naming both. */
export function readRange(
  since: string | undefined,
  until: string | undefined,
  now = Date.now(),
): { from: string | undefined; to: string | undefined } {
  const from = since === undefined ? undefined : readDay("--since", since, now);
  const to = until === undefined ? undefined : readDay("--until", until, now);
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError(`--since ${from} is after --until ${to}: nothing lies between them`);
  return { from, to };
}
