import { isoDay } from "./dates.js";

// The days of one token's series as the pages bring them, held to what a series can be: each day
// a real calendar day (YYYY-MM-DD), each once, and no more of them than any token has traded
// (20 years). What the server sent otherwise is left out and said, so that a server cannot make the
// walk endless (a page repeated, days without end) nor grow it past bounded memory.

/** Days kept per token: 20 years and a little, longer than any token's life. */
export const MAX_SERIES_DAYS = 20 * 366;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-02-28" is a day; "2026-02-30", "2026-1-1" and "2026-01-01T00:00Z" are not. */
export function isCalendarDay(value: unknown): value is string {
  const m = typeof value === "string" ? DAY.exec(value) : null;
  return m !== null && isoDay(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) === value;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

export class SeriesDays {
  readonly byDate = new Map<string, Record<string, unknown>>();
  private notDays = 0;
  private twice = 0;
  /** The series reached MAX_SERIES_DAYS and a page brought more. */
  full = false;

  /** Adds a page's days; returns how many new days it brought. */
  add(days: readonly unknown[]): number {
    let added = 0;
    for (const day of days) {
      const date = (day as Record<string, unknown> | null)?.date_time;
      if (!isCalendarDay(date)) this.notDays++;
      else if (this.byDate.has(date)) this.twice++;
      else if (this.byDate.size >= MAX_SERIES_DAYS) {
        this.full = true;
        break;
      } else {
        this.byDate.set(date, day as Record<string, unknown>);
        added++;
      }
    }
    return added;
  }

  /** The days, oldest first. */
  sorted(): Array<Record<string, unknown>> {
    return [...this.byDate.keys()].sort().map((date) => this.byDate.get(date)!);
  }

  /** What was left out, one warning each, naming the token as the user did. */
  warnings(named: string): string[] {
    return [
      this.notDays > 0 &&
        `history: ${named}: ${plural(this.notDays, "day", "days")} with a date that is not a calendar day (YYYY-MM-DD) left out`,
      this.twice > 0 &&
        `history: ${named}: ${plural(this.twice, "day was", "days were")} sent twice; the first kept`,
    ].filter((warning): warning is string => typeof warning === "string");
  }
}
