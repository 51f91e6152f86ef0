import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPage } from "../../src/api/pager.js";
import { chooseColumns } from "../../src/commands/data/definition.js";
import { checkPaths } from "../../src/commands/data/path-flags.js";
import { MARKET } from "../../src/commands/market/definition.js";
import { MARKET_RECORD } from "../../src/contract/shapes.js";
import { CliError } from "../../src/errors.js";
import { durationSchema, parseValue as parseFlag, splitList, wholeNumber } from "../../src/flags/values.js";
import { parseJson } from "../../src/json/exact.js";
import { cellValue, formatCell } from "../../src/output/columns.js";

const positiveInt = (what: string) => wholeNumber(what, 1);
const parseFields = (text: string, shape: typeof MARKET_RECORD, what: string) =>
  checkPaths("--fields", splitList("--fields", text), shape, what);
const ALL_MARKET_COLUMNS = Object.values(MARKET.table.views).flatMap((v) => [
  ...chooseColumns(v.columns, []),
  ...chooseColumns(v.wide, []),
]);
const CTX = { relativeTime: true, now: Date.now() };

import {
  formatCompact,
  formatInteger,
  formatPercent,
  formatPlain,
  formatPrice,
} from "../../src/output/format.js";
import { toCsv } from "../../src/output/writers.js";
import { sanitizeInline } from "../../src/terminal/sanitize.js";

// No input crashes the parsers and formatters: they return a value or a CliError, nothing else.

const decimalString = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 30 }))
  .map(([neg, digits, scale]) => {
    const s = digits.toString().padStart(scale + 1, "0");
    const text = scale ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s;
    return (neg ? "-" : "") + text;
  });
const anyCell = fc.oneof(fc.anything(), decimalString, fc.double(), fc.string());

describe("formatters", () => {
  it("always return a single line with no control characters", () => {
    fc.assert(
      fc.property(anyCell, (value) => {
        for (const f of [
          formatPrice,
          formatPercent,
          formatInteger,
          formatPlain,
          (v: unknown) => formatCompact(v, "$"),
        ]) {
          const out = f(value);
          expect(typeof out).toBe("string");
          expect(out).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("formatPrice never prints 0.00, nor exponent form below 25 integer digits, for a non-zero decimal string", () => {
    // Each branch is counted: a property whose assertions never ran would pass by saying nothing.
    const ran = { short: 0, long: 0, nonZero: 0 };
    fc.assert(
      fc.property(decimalString, (text) => {
        const out = formatPrice(text);
        // Past 24 integer digits it is written short (1.23e+26), as MCAP is, to keep the table's width.
        const digits = /^-?0*(\d*)/.exec(text)![1]!.length;
        if (digits <= 24) {
          ran.short++;
          expect(out).not.toMatch(/e[+-]?\d/i);
        } else {
          ran.long++;
          expect(out).toMatch(/^-?\d(\.\d+)?e\+\d+$/);
        }
        if (/[1-9]/.test(text)) {
          ran.nonZero++;
          expect(out.replace(/^-/, "")).not.toMatch(/^0(\.0+)?$/);
        }
      }),
      { numRuns: 2000 },
    );
    expect(ran.short).toBeGreaterThan(100);
    expect(ran.long).toBeGreaterThan(0);
    expect(ran.nonZero).toBeGreaterThan(100);
  });

  it("table cells and CSV accept any record shape", () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 5 }), (records) => {
        for (const record of records)
          for (const c of ALL_MARKET_COLUMNS) {
            cellValue(record, c);
            expect(formatCell(record, c, CTX).text).not.toMatch(/[\x1b\x07]/);
          }
        expect(typeof toCsv(records)).toBe("string");
      }),
      { numRuns: 500 },
    );
  });

  it("sanitizeInline leaves no escape or control characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(sanitizeInline(s)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("response parser", () => {
  it("reads any JSON body as a page or throws a CliError", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.record({ success: fc.boolean(), data: fc.array(fc.jsonValue()) })),
        (body) => {
          for (const kind of ["market", "directory", "agents", "ta", "any"] as const) {
            try {
              const page = readPage(body, kind, 1);
              expect(Array.isArray(page.records)).toBe(true);
            } catch (error) {
              expect(error).toBeInstanceOf(CliError);
            }
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reads any text as JSON or throws a SyntaxError", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          parseJson(text);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("flag parser", () => {
  it("numbers, durations and field lists: a value or a usage error naming the flag", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const [flag, run] of [
          ["--page", () => parseFlag("--page", positiveInt("of 1 or more"), text)],
          ["--timeout", () => parseFlag("--timeout", durationSchema, text)],
          ["--fields", () => parseFields(text, MARKET_RECORD, "market")],
        ] as const) {
          try {
            run();
          } catch (error) {
            expect(error).toBeInstanceOf(CliError);
            expect((error as Error).message.startsWith(flag)).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
