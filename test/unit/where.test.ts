import { describe, expect, it } from "vitest";
import { LosslessNumber, parseJson } from "../../src/json/exact.js";
import {
  matchesAll,
  matchesCondition,
  parseWhere,
  readNumber,
  WhereSyntaxError,
} from "../../src/query/records.js";

const rec = (value: unknown) => ({ a: { b: value } });
const test = (value: unknown, text: string) => matchesCondition(rec(value), parseWhere(`a.b${text}`));

describe("parseWhere", () => {
  it("splits at the first operator, two-character ones first", () => {
    expect(parseWhere("a.b>=5")).toMatchObject({ path: "a.b", op: ">=", value: "5" });
    expect(parseWhere("a.b!=x")).toEqual({ path: "a.b", op: "!=", value: "x" });
    expect(parseWhere("a.b<=-1")).toMatchObject({ path: "a.b", op: "<=", value: "-1" });
    expect(parseWhere("a.b=x=y")).toEqual({ path: "a.b", op: "=", value: "x=y" });
    expect(parseWhere("a.b~Agent <3")).toEqual({ path: "a.b", op: "~", value: "Agent <3" });
    expect(parseWhere(" a.b > 5 ")).toMatchObject({ path: "a.b", op: ">", value: "5" });
  });
  it("refuses what it cannot read", () => {
    for (const bad of ["a.b", ">5", "a b>5", "a.b>", "a.b!5", "a.b>null"])
      expect(() => parseWhere(bad), bad).toThrow(WhereSyntaxError);
  });
  it("a run of operator characters that is not one operator is named, never read as op + value", () => {
    for (const op of [">>", "=<", "==", "<>", "=>", "!==", "~=", ">=="])
      expect(() => parseWhere(`a.b${op}5`), op).toThrow(`unknown operator "${op}"`);
  });
});

describe("readNumber", () => {
  const n = (text: string) => {
    const parts = readNumber(text);
    return parts && `${parts.negative ? "-" : ""}${parts.int}${parts.frac ? `.${parts.frac}` : ""}`;
  };
  it("reads the forms people type, exactly", () => {
    expect(n(".5")).toBe("0.5");
    expect(n("-.5")).toBe("-0.5");
    expect(n("+3")).toBe("3");
    expect(n("1e6")).toBe("1000000");
    expect(n("2.5E-3")).toBe("0.0025");
    expect(n("1_000")).toBe("1000");
    expect(n("1.5k")).toBe("1500");
    expect(n("2M")).toBe("2000000");
    expect(n("3b")).toBe("3000000000");
    expect(n("1T")).toBe("1000000000000");
    expect(n("$1000")).toBe("1000");
    expect(n("-$2.5k")).toBe("-2500");
    expect(n("0.10000000000000000001")).toBe("0.10000000000000000001");
  });
  it("refuses what is not a number", () => {
    for (const bad of ["1,000", "0x10", "abc", "1..2", "1_", "_1", "1e", ".", "-", "1k5", "5%", "1 000", "$"])
      expect(readNumber(bad), bad).toBeUndefined();
  });
});

describe("matchesCondition", () => {
  it("= and != compare numbers exactly from their digits, strings as strings", () => {
    expect(test("5.00", "=5")).toBe(true);
    expect(test(5, "=5.0")).toBe(true);
    expect(test("0.10000000000000000001", "=0.1")).toBe(false);
    expect(test("abc", "=abc")).toBe(true);
    expect(test("abc", "=ABC")).toBe(false);
    expect(test("abc", "!=ABC")).toBe(true);
    expect(test(true, "=true")).toBe(true);
    expect(test(false, "=true")).toBe(false);
    expect(test(true, "=TRUE")).toBe(true);
    expect(test(false, "=False")).toBe(true);
    expect(test(true, "!=True")).toBe(false);
    expect(test("5000", ">4.9k")).toBe(true);
    expect(test("0.6", ">.5")).toBe(true);
    expect(test("", "=")).toBe(true);
  });
  it("> >= < <= at the boundary", () => {
    expect(test("5", ">5")).toBe(false);
    expect(test("5", ">=5")).toBe(true);
    expect(test("5", "<5")).toBe(false);
    expect(test("5", "<=5")).toBe(true);
    expect(test("5.000000000000000000001", ">5")).toBe(true);
    expect(test("4.999999999999999999999", "<5")).toBe(true);
  });
  it("negative numbers", () => {
    expect(test("-5", "<-4")).toBe(true);
    expect(test("-5", ">-6")).toBe(true);
    expect(test("-0.00", "=0")).toBe(true);
    expect(test("-10", "<-9.99")).toBe(true);
    expect(test("-9.99", "<=-10")).toBe(false);
  });
  it("exponent numbers, in the record and in the filter, exactly", () => {
    expect(test("1e3", "=1000")).toBe(true);
    expect(test("2.5E-3", "<0.0025000001")).toBe(true);
    expect(test("1000", ">=1e3")).toBe(true);
    expect(test("1000", ">1e3")).toBe(false);
    const big = parseJson('{"a":{"b":1e400}}');
    expect(matchesCondition(big, parseWhere("a.b>1e399"))).toBe(true);
    expect(matchesCondition(big, parseWhere(`a.b=1${"0".repeat(400)}`))).toBe(true);
    expect(test(new LosslessNumber("12345678901234567890123"), ">12345678901234567890122")).toBe(true);
  });
  it("strings against numbers: an ordering never matches, = compares text", () => {
    expect(test("abc", ">5")).toBe(false);
    expect(test("abc", "<5")).toBe(false);
    expect(test("5", ">abc")).toBe(false);
    expect(test("banana", ">apple")).toBe(true);
    expect(test("apple", "<=apple")).toBe(true);
    expect(test("abc", "=5")).toBe(false);
  });
  it("~ is a case-insensitive substring, numbers by their digits as sent", () => {
    expect(test("Virtual Protocol", "~virt")).toBe(true);
    expect(test("Virtual Protocol", "~PROTO")).toBe(true);
    expect(test("Virtual", "~xyz")).toBe(false);
    expect(test(new LosslessNumber("12.50"), "~2.5")).toBe(true);
  });
  it("null matches missing or null; other conditions never match a missing value, except !=", () => {
    expect(matchesCondition({}, parseWhere("a.b=null"))).toBe(true);
    expect(test(null, "=null")).toBe(true);
    expect(test("0", "=null")).toBe(false);
    expect(test(null, "!=null")).toBe(false);
    expect(test("x", "!=null")).toBe(true);
    expect(matchesCondition({}, parseWhere("a.b>0"))).toBe(false);
    expect(matchesCondition({}, parseWhere("a.b<0"))).toBe(false);
    expect(matchesCondition({}, parseWhere("a.b~x"))).toBe(false);
    expect(matchesCondition({}, parseWhere("a.b=x"))).toBe(false);
    expect(matchesCondition({}, parseWhere("a.b!=x"))).toBe(true);
  });
  it("every condition must hold", () => {
    const r = { a: { b: "7", c: "Aero" } };
    expect(matchesAll(r, [parseWhere("a.b>5"), parseWhere("a.c~ae")])).toBe(true);
    expect(matchesAll(r, [parseWhere("a.b>5"), parseWhere("a.c~zz")])).toBe(false);
    expect(matchesAll(r, [])).toBe(true);
  });
});
