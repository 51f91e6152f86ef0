import { describe, expect, it } from "vitest";
import { schemaFor } from "../../src/api/schemas.js";
import { LosslessNumber } from "../../src/json/exact.js";
import { decimalParts, isDecimalText } from "../../src/numbers/decimal.js";
import { formatInteger, formatPlain, formatPrice } from "../../src/output/format.js";

// The one reader of number text (src/numbers/decimal.ts): formatting, --where and --sort, the risk
// rules, the strict schemas and the sandbox's data read numbers through it.

describe("decimalParts", () => {
  it.each([
    [" +007.50 ", { negative: false, sign: "+", int: "7", frac: "5" }],
    ["-0.00", { negative: false, sign: "-", int: "0", frac: "" }],
    ["-12.034", { negative: true, sign: "-", int: "12", frac: "034" }],
    ["1.5e-3", { negative: false, sign: "", int: "0", frac: "0015" }],
    ["-2.5E+2", { negative: true, sign: "-", int: "250", frac: "" }],
    [1e21, { negative: false, sign: "", int: "1000000000000000000000", frac: "" }],
    [new LosslessNumber("10.10"), { negative: false, sign: "", int: "10", frac: "1" }],
  ])("reads %j as its sign as written and its digits", (value, parts) => {
    expect(decimalParts(value)).toEqual(parts);
  });

  it.each([
    ["1."],
    [".5"],
    ["1_000"],
    ["0x10"],
    ["1e10001"],
    ["Infinity"],
    [""],
    [Number.NaN],
    [null],
    [true],
  ])("%j is not a number", (value) => {
    expect(decimalParts(value)).toBeUndefined();
  });

  it("a lossless number past the exponent it writes out is read as its double; formatting shows it as sent", () => {
    expect(decimalParts(new LosslessNumber("1e-20000"))).toEqual({
      negative: false,
      sign: "",
      int: "0",
      frac: "",
    });
    expect(formatPrice(new LosslessNumber("1e-20000"))).toBe(formatPlain(new LosslessNumber("1e-20000")));
  });

  it("formatting keeps the sign as written: +5 and -0 as sent", () => {
    expect(formatInteger("+5")).toBe("+5");
    expect(formatInteger("-0")).toBe("-0");
    expect(formatPrice("+1234.5")).toBe("+1,234.50");
  });
});

describe("isDecimalText: a decimal as the service writes one", () => {
  it.each([["0"], ["-12.50"], ["007"], ["123456789012345678901234567890.5"]])("%j is one", (text) => {
    expect(isDecimalText(text)).toBe(true);
  });

  it.each([["+1"], ["1e5"], [" 1"], ["1 "], ["1."], [".5"], ["-"], [""], ["1,000"]])("%j is not", (text) => {
    expect(isDecimalText(text)).toBe(false);
  });

  it("the strict schemas hold a decimal field to it, and a numeric field takes a JSON number too", () => {
    const schema = schemaFor({ price: "decimal", cap: "numeric" }, "strict");
    expect(schema.safeParse({ price: "-1.5", cap: 3 }).success).toBe(true);
    expect(schema.safeParse({ price: "+1.5", cap: "3" }).success).toBe(false);
    const issue = schema.safeParse({ price: "1", cap: "3e2" }).error?.issues[0];
    expect(issue?.message).toBe("expected a decimal string");
  });
});
