import { describe, expect, it } from "vitest";
import { LosslessNumber } from "../../src/json/exact.js";
import { subtractDecimals } from "../../src/numbers/decimal.js";

// smart-money's NET column: inflow − outflow, written from the digits, never through a double.

describe("subtractDecimals", () => {
  it.each([
    ["1500000.10000000000000000001", "300000", "1200000.10000000000000000001"],
    ["100", "250.5", "-150.5"],
    ["1e21", "5", "999999999999999999995"],
    ["0.1", "0.3", "-0.2"],
    ["-2", "-2", "0"],
    ["0.15", "0.05", "0.1"],
    ["0.000001", "0", "0.000001"],
    ["5", "-1.25", "6.25"],
  ])("%s − %s = %s", (a, b, expected) => {
    expect(subtractDecimals(a, b)).toBe(expected);
  });

  it("reads JSON numbers and lossless numbers alike; anything else has no difference", () => {
    expect(subtractDecimals(2.5, new LosslessNumber("0.50000000000000000001"))).toBe(
      "1.99999999999999999999",
    );
    expect(subtractDecimals("abc", 1)).toBeUndefined();
    expect(subtractDecimals(null, 1)).toBeUndefined();
    expect(subtractDecimals(1, undefined)).toBeUndefined();
  });
});
