import { describe, expect, it } from "vitest";
import { readDay } from "../../src/commands/history/dates.js";
import { parseSince } from "../../src/commands/payments/run.js";
import { readWhen } from "../../src/flags/durations.js";
import { parseFlags } from "../../src/flags/parse.js";
import { durationSchema, parseValue, ttlSchema } from "../../src/flags/values.js";

// One grammar for every duration flag (s, m = minutes, h, d, w, mo, y, a date), each flag refusing
// only what makes no sense for it, saying why; history --since refuses a span no token history can
// have.

const NOW = Date.parse("2026-11-26T04:30:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("the grammar", () => {
  it.each([
    ["30s", { kind: "span", amount: 30, unit: "s" }],
    ["6m", { kind: "span", amount: 6, unit: "m" }],
    ["6mo", { kind: "span", amount: 6, unit: "mo" }],
    ["6MO", { kind: "span", amount: 6, unit: "mo" }],
    ["1.5h", { kind: "span", amount: 1.5, unit: "h" }],
    ["2w", { kind: "span", amount: 2, unit: "w" }],
    ["1y", { kind: "span", amount: 1, unit: "y" }],
    ["500ms", { kind: "span", amount: 500, unit: "ms" }],
    ["45", { kind: "span", amount: 45, unit: "s" }],
    ["2026-01-31", { kind: "date", day: "2026-01-31", ms: Date.UTC(2026, 0, 31) }],
  ])("%s", (text, expected) => {
    expect(readWhen("--x", text)).toEqual(expected);
  });
  it("reads nothing else", () => {
    for (const text of ["", "soon", "1.5mo", "-1d", "1d2h", "6 m", "1x", "2026-1-31"])
      expect(readWhen("--x", text), text).toBeUndefined();
    expect(() => readWhen("--x", "2026-02-30")).toThrow('--x: "2026-02-30" is not a day of the calendar');
  });
});

describe("--timeout and --watch: a length, up to a day", () => {
  const timeout = (text: string) => parseValue("--timeout", durationSchema, text);
  it("m is minutes; h is read, not refused", () => {
    expect(timeout("2m")).toBe(120_000);
    expect(timeout("1h")).toBe(HOUR);
    expect(timeout("24h")).toBe(DAY);
    expect(timeout("500ms")).toBe(500);
    expect(timeout("5")).toBe(5000);
  });
  it("refuses what is not a length, saying why", () => {
    expect(() => timeout("25h")).toThrow("--timeout: too long: at most 24h (");
    expect(() => timeout("1mo")).toThrow("--timeout: too long: at most 24h");
    expect(() => timeout("2026-01-01")).toThrow("--timeout: a date is a day, not a length of time");
    expect(() => timeout("0")).toThrow('--timeout: expected a length above 0, got "0"');
    // Its examples are lengths it takes: none past its 24 hours.
    expect(() => timeout("soon")).toThrow(
      '--timeout: expected a span such as 30s, 10m or 2h (m is minutes), got "soon"',
    );
    for (const example of ["30s", "10m", "2h"]) expect(timeout(example)).toBeGreaterThan(0);
  });
});

describe("--cache: a time to live, up to a week", () => {
  const ttl = (text: string) => parseValue("--cache", ttlSchema, text);
  it("reads weeks and fractions; 0 is off", () => {
    expect(ttl("1w")).toBe(7 * DAY);
    expect(ttl("1.5h")).toBe(1.5 * HOUR);
    expect(ttl("0")).toBe(0);
  });
  it("refuses more than a week and a date, saying why", () => {
    expect(() => ttl("8d")).toThrow("--cache: too long: at most 7d (market data a week old is no answer");
    expect(() => ttl("1y")).toThrow("--cache: too long: at most 7d");
    expect(() => ttl("2026-01-01")).toThrow("--cache: a date is a day, not a length of time");
    expect(() => ttl("soon")).toThrow(
      "--cache: expected a time to live (0 turns the cache off) such as 30s, 10m, 2h or 7d (m is minutes), got",
    );
    for (const example of ["30s", "10m", "2h", "7d"]) expect(ttl(example)).toBeGreaterThan(0);
  });
});

describe("payments --since: any span back from now, a date or an ISO time", () => {
  it("reads every unit", () => {
    expect(parseSince("6m", NOW)).toBe(NOW - 6 * 60_000);
    expect(parseSince("24h", NOW)).toBe(NOW - DAY);
    expect(parseSince("2w", NOW)).toBe(NOW - 14 * DAY);
    expect(parseSince("6mo", NOW)).toBe(Date.parse("2026-05-26T04:30:00.000Z"));
    expect(parseSince("1y", NOW)).toBe(Date.parse("2025-11-26T04:30:00.000Z"));
    expect(parseSince("2026-01-31", NOW)).toBe(Date.UTC(2026, 0, 31));
    expect(parseSince("2026-01-31T10:00Z", NOW)).toBe(Date.parse("2026-01-31T10:00Z"));
    // Further back than a date holds: every payment.
    expect(parseSince("999999999y", NOW)).toBe(-8.64e15);
  });
  it("refuses what the grammar does not read, naming it", () => {
    expect(() => parseSince("yesterday", NOW)).toThrow(
      '--since: expected a span such as 30s, 10m, 2h, 7d, 2w, 6mo or 1y (m is minutes, mo months), or a date (YYYY-MM-DD) or an ISO time, got "yesterday"',
    );
  });
});

describe("history --since/--until: a day, or a span back of hours and more", () => {
  it("reads days, weeks, months, years and hours", () => {
    expect(readDay("--since", "90d", NOW)).toBe("2026-08-28");
    expect(readDay("--since", "12w", NOW)).toBe("2026-09-03");
    expect(readDay("--since", "6mo", NOW)).toBe("2026-05-26");
    expect(readDay("--since", "1y", NOW)).toBe("2025-11-26");
    expect(readDay("--since", "24h", NOW)).toBe("2026-11-25");
    expect(readDay("--since", "20y", NOW)).toBe("2006-11-26");
    expect(readDay("--since", "2026-01-31", NOW)).toBe("2026-01-31");
  });
  it("6m is six minutes, which a daily history refuses, pointing to 6mo", () => {
    expect(() => readDay("--since", "6m", NOW)).toThrow(
      '--since: "6m" is 6 minutes, and history is daily: for 6 months write 6mo',
    );
    expect(() => readDay("--until", "1m", NOW)).toThrow(
      '--until: "1m" is 1 minute, and history is daily: for 1 month write 1mo',
    );
    expect(() => readDay("--since", "90", NOW)).toThrow('--since: "90" is 90 seconds, and history is daily');
  });
  it("refuses a span further back than any token's history (more than 20 years)", () => {
    expect(() => readDay("--since", "99999y", NOW)).toThrow(
      '--since: "99999y" reaches back more than 20 years, further than any token\'s history',
    );
    expect(() => readDay("--since", "21y", NOW)).toThrow('"21y" reaches back more than 20 years');
    expect(() => readDay("--since", "7306d", NOW)).toThrow('"7306d" reaches back more than 20 years');
  });
});

describe("sandbox --live: an interval in the same grammar", () => {
  it("reads 1 (a second), 500ms and 2m", async () => {
    const { default: sandbox } = await import("../../src/commands/sandbox/index.js");
    const live = (text: string) => parseFlags(sandbox.flags, { live: text }).live;
    expect(live("1")).toBe(1000);
    expect(live("500ms")).toBe(500);
    expect(live("2m")).toBe(120_000);
    expect(() => live("2026-01-01")).toThrow("--live: a date is a day, not a length of time");
  });
});
