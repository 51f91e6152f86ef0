import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPaths } from "../../src/commands/data/path-flags.js";
import { MAX_BODY_CAP_BYTES } from "../../src/contract/limits.js";
import { MARKET_RECORD } from "../../src/contract/shapes.js";
import { UsageError } from "../../src/errors.js";
import {
  durationSchema,
  parseValue as parseFlag,
  rateSchema,
  sizeSchema,
  splitList,
} from "../../src/flags/values.js";

const parseList = (flag: string, values: string | string[]) => splitList(flag, values);
const parseFields = (text: string, shape: typeof MARKET_RECORD, what: string) =>
  checkPaths("--fields", splitList("--fields", text), shape, what);

describe("parseList", () => {
  it("splits on commas, trims, drops repeats, keeps escaped commas", () => {
    expect(parseList("--tickers", ["A, B,A", "COMMA\\,COIN"])).toEqual(["A", "B", "COMMA,COIN"]);
  });
  it("keeps $ & + = ? # % spaces and emoji inside items", () => {
    expect(parseList("--tickers", "$X,A&B,C+D,HELLO WORLD,🚀")).toEqual([
      "$X",
      "A&B",
      "C+D",
      "HELLO WORLD",
      "🚀",
    ]);
  });
  it("rejects empty items and items over 200 characters, naming the flag", () => {
    expect(() => parseList("--tickers", "A,,B")).toThrow(/--tickers: empty item/);
    expect(() => parseList("--ids", ",")).toThrow(/--ids: empty item/);
    expect(() => parseList("--tickers", "x".repeat(201))).toThrow(/longer than 200/);
    expect(parseList("--tickers", "🚀".repeat(200))).toHaveLength(1);
  });
  it("either returns items or throws a UsageError, for any input (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (values) => {
        try {
          const items = parseList("--tickers", values)!;
          for (const item of items) {
            expect(item.length).toBeGreaterThan(0);
            expect(item).toBe(item.trim());
          }
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
        }
      }),
    );
  });
});

describe("flag schemas", () => {
  it("durations", () => {
    expect(parseFlag("--timeout", durationSchema, "30s")).toBe(30_000);
    expect(parseFlag("--timeout", durationSchema, "500ms")).toBe(500);
    expect(parseFlag("--timeout", durationSchema, "2m")).toBe(120_000);
    expect(parseFlag("--timeout", durationSchema, "5")).toBe(5000);
    expect(() => parseFlag("--timeout", durationSchema, "0")).toThrow(/--timeout/);
    expect(() => parseFlag("--timeout", durationSchema, "soon")).toThrow(/--timeout/);
  });
  it("rates", () => {
    expect(parseFlag("--rate", rateSchema, "90/min")).toBe(90);
    expect(() => parseFlag("--rate", rateSchema, "0/min")).toThrow(/--rate/);
    expect(() => parseFlag("--rate", rateSchema, "fast")).toThrow(/--rate/);
  });
  it("sizes (--max-body): decimal and binary units, from 1KiB to 256MiB", () => {
    expect(parseFlag("--max-body", sizeSchema, "64MB")).toBe(64_000_000);
    expect(parseFlag("--max-body", sizeSchema, "64MiB")).toBe(64 * 1024 ** 2);
    expect(parseFlag("--max-body", sizeSchema, "64m")).toBe(64 * 1024 ** 2);
    expect(parseFlag("--max-body", sizeSchema, "512 KiB")).toBe(512 * 1024);
    expect(parseFlag("--max-body", sizeSchema, "1.5MiB")).toBe(1.5 * 1024 ** 2);
    expect(parseFlag("--max-body", sizeSchema, "2048")).toBe(2048);
    expect(parseFlag("--max-body", sizeSchema, "256MiB")).toBe(MAX_BODY_CAP_BYTES);
    for (const bad of ["", "lots", "0", "1023", "257MiB", "1GB", "-5MB", "5 XB", "1e6", "NaN"]) {
      expect(() => parseFlag("--max-body", sizeSchema, bad), bad).toThrow(
        /^--max-body: expected a size from 1KiB to 256MiB such as 64MB or 512KiB/,
      );
    }
  });
  it("fields must be paths the record has", () => {
    expect(parseFields("token_info.symbol,token_metrics", MARKET_RECORD, "market")).toEqual([
      "token_info.symbol",
      "token_metrics",
    ]);
    expect(() => parseFields("usd_price", MARKET_RECORD, "market")).toThrow(
      /did you mean token_metrics\.usd_price/,
    );
  });
});
