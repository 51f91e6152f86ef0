import { describe, expect, it } from "vitest";
import { LosslessNumber } from "../../src/json/exact.js";
import { numberToPlain } from "../../src/numbers/decimal.js";
import {
  formatCompact,
  formatInteger,
  formatPercent,
  formatPlain,
  formatPrice,
} from "../../src/output/format.js";
import { displayWidth, truncateWidth } from "../../src/output/width.js";
import { sanitizeBlock, sanitizeInline } from "../../src/terminal/sanitize.js";

describe("formatPrice", () => {
  it.each([
    ["0", "0"],
    ["0.000000", "0"],
    ["1234.5", "1,234.50"],
    ["48.095252378592", "48.0953"],
    ["1.99999", "2.00"],
    ["0.5", "0.5"],
    ["0.001317", "0.001317"],
    ["0.0000001234", "0.0₆1234"],
    ["0.000000000001", "0.0₁₁1000"],
    ["-0.25", "-0.25"],
    ["1000000000000000", "1,000,000,000,000,000.00"],
  ])("%s → %s", (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
  });
  // Below 1 a price keeps four significant digits, rounded half up from the digits (a double would
  // make 0.052495 round down).
  it.each([
    ["0.3698750479", "0.3699"],
    ["0.9312647114", "0.9313"],
    ["0.052499", "0.0525"],
    ["0.052495", "0.0525"],
    ["0.99999", "1.00"],
    ["0.000099995", "0.0001000"],
    ["0.0000001234567", "0.0₆1235"],
    ["-0.36987", "-0.3699"],
    ["0.36984999999999999999999", "0.3698"],
  ])("below 1, rounded half up: %s → %s", (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
    expect(formatPrice(new LosslessNumber(input))).toBe(expected);
  });
  // Written with a subscript count of its zeros, a price keeps four significant digits, its
  // trailing zeros too: a column of them reads alike (0.0₇6300 beside 0.0₇6111, never 0.0₇63).
  it.each([
    ["0.000000062998", "0.0₇6300"],
    ["0.00000000654", "0.0₈6540"],
    ["0.000078703342", "0.0₄7870"],
    ["0.00000006", "0.0₇6000"],
    ["0.0000000999996", "0.0₆1000"],
  ])("below 0.0001, four significant digits, zeros kept: %s → %s", (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
    expect(formatPrice(new LosslessNumber(input))).toBe(expected);
  });
  it("reads JSON numbers without exponent form", () => {
    expect(formatPrice(1e-12)).toBe("0.0₁₁1000");
    expect(formatPrice(new LosslessNumber("0.000000000000123456789"))).toBe("0.0₁₂1235");
  });
  it("shows null as a dash and junk as text", () => {
    expect(formatPrice(null)).toBe("-");
    expect(formatPrice("n/a")).toBe("n/a");
  });
});

describe("other formatters", () => {
  it("compact amounts", () => {
    expect(formatCompact("1234567", "$")).toBe("$1.23M");
    expect(formatCompact("4500000000", "$")).toBe("$4.50B");
    expect(formatCompact("1e15" as unknown)).toBe("1000.00T");
    expect(formatCompact(1e15)).toBe("1000.00T");
    expect(formatCompact("-2500")).toBe("-2.50K");
    expect(formatCompact("0")).toBe("0");
  });
  // An amount that rounds to 1000 of a unit is 1.00 of the next one.
  it.each([
    ["999999.99", "$1.00M"],
    ["999999999.5", "$1.00B"],
    ["999999999999.995", "$1.00T"],
    ["999.995", "$1.00K"],
    ["999994.99", "$999.99K"],
    ["-999999.99", "-$1.00M"],
  ])("units at their boundary: %s → %s", (input, expected) => {
    expect(formatCompact(input, "$")).toBe(expected);
  });
  it("percentages are signed", () => {
    expect(formatPercent("1.234")).toBe("+1.23%");
    expect(formatPercent("-0.5")).toBe("-0.50%");
    expect(formatPercent("0")).toBe("0.00%");
    expect(formatPercent("-0.001")).toBe("0.00%");
    expect(formatPercent(null)).toBe("-");
  });
  it("integers are grouped", () => {
    expect(formatInteger(1234567)).toBe("1,234,567");
    expect(formatInteger("987")).toBe("987");
  });
  it("plain values", () => {
    expect(formatPlain(true)).toBe("yes");
    expect(formatPlain(undefined)).toBe("-");
    expect(formatPlain("\x1b[31mred\x1b[0m")).toBe("red");
  });
  it("numberToPlain never uses exponents", () => {
    expect(numberToPlain(1e-7)).toBe("0.0000001");
    expect(numberToPlain(1.5e21)).toBe("1500000000000000000000");
    expect(numberToPlain(-2.5e-8)).toBe("-0.000000025");
  });
  it("truncateWidth never splits a character and counts wide ones as two cells", () => {
    expect(truncateWidth("🚀🚀🚀🚀", 5)).toBe("🚀🚀…");
    expect(displayWidth("🚀🚀…")).toBe(5);
    expect(truncateWidth("日本語テキスト", 6)).toBe("日本…");
    expect(truncateWidth("short", 10)).toBe("short");
    expect(truncateWidth("e\u0301e\u0301e\u0301", 3)).toBe("e\u0301e\u0301e\u0301");
  });
  it("displayWidth: one cell below U+0300, wide and zero-width characters past it, pairs as one", () => {
    expect(displayWidth("0.0₅1537 +2.85% é")).toBe(17);
    expect(displayWidth("\x1b[31m日本\x1b[0m ok")).toBe(7);
    expect(displayWidth("e\u0301\u200B\u20DD")).toBe(1);
    expect(displayWidth("a😀b𠀀")).toBe(6);
    expect(displayWidth("\u{1D400}x")).toBe(2); // a narrow character outside the BMP: one cell, not two
    expect(displayWidth("❤\uFE0F ❤")).toBe(4);
    // A lone surrogate is one cell, and does not swallow the character after it.
    expect(displayWidth("\uD83Dx")).toBe(2);
    expect(displayWidth("x\uDE00")).toBe(2);
  });
});

describe("sanitize", () => {
  it("removes CSI, OSC and C1 sequences and control characters", () => {
    const evil = "A\x1b[2J\x1b]0;pwned\x07B\x1b]8;;http://x\x1b\\C\x9b31mD\u202eE\r\nF\x00";
    expect(sanitizeInline(evil)).toBe("ABCDE F");
    expect(sanitizeBlock("line1\r\nline2\x1b[1m")).toBe("line1\nline2");
  });
});
