import { describe, expect, it } from "vitest";
import type { Cell, Column } from "../../src/output/columns.js";
import { fitToWidth } from "../../src/output/table-widths.js";

// fitToWidth on its own: which column gives up width first, and what is cut.

const text = (header: string, more: Partial<Column> = {}): Column => ({
  header,
  paths: [header],
  format: "text",
  max: 40,
  min: 6,
  ...more,
});
const cells = (...widths: number[]): Cell[][] => [widths.map((w) => ({ text: "x".repeat(w) }))];

describe("fitToWidth", () => {
  it("takes width from a wrapping column before a column that is cut, even when it is narrower", () => {
    const columns = [text("reason", { wrap: true }), text("name")];
    const widths = [30, 34];
    // 30 + 34 + 2 = 66 > 50: one space between, then 65 - 50 = 15 cells from "reason" alone.
    const fit = fitToWidth(cells(30, 34), columns, widths, 50, true);
    expect(fit).toEqual({ visible: [0, 1], separator: " " });
    expect(widths).toEqual([15, 34]);
  });

  it("shrinks the widest text column first, down to its minimum, then drops columns from the end", () => {
    const columns = [text("a"), text("b"), { header: "price", paths: ["p"], format: "price" } as Column];
    const widths = [10, 20, 8];
    const matrix = cells(10, 20, 8);
    // 42 > 25: one space (40), then 15 cells: "b" down to 10, then one each from "a" and "b" in turn.
    expect(fitToWidth(matrix, columns, widths, 25, true)).toEqual({ visible: [0, 1, 2], separator: " " });
    expect(widths).toEqual([7, 8, 8]);
    expect(matrix[0]!.map((c) => c.text.length)).toEqual([7, 8, 8]);
    // At 20 not even both at 6 fit beside it (6 + 6 + 8 + 2 = 22 > 20), so the price goes, and the
    // text columns keep the width it leaves: 31 - 20 = 11 cells, "b" down to 10, then one from "a".
    const narrow = [10, 20, 8];
    expect(fitToWidth(cells(10, 20, 8), columns, narrow, 20, true).visible).toEqual([0, 1]);
    expect(narrow).toEqual([9, 10, 8]);
  });

  it("never shrinks a column without a minimum (the symbol): a column goes instead", () => {
    const symbol: Column = { header: "SYMBOL", paths: ["s"], format: "text", max: 12 };
    const price: Column = { header: "P", paths: ["p"], format: "price" };
    const columns = [symbol, text("name"), price, price];
    const widths = [10, 20, 8, 8];
    const matrix = cells(10, 20, 8, 8);
    // 10 + 6 + 8 + 8 + 3 = 35 > 30: the last price goes; then "name" gives up what is still over.
    expect(fitToWidth(matrix, columns, widths, 30, true)).toEqual({ visible: [0, 1, 2], separator: " " });
    expect(widths.slice(0, 3)).toEqual([10, 10, 8]);
    expect(matrix[0]![0]!.text).toBe("x".repeat(10));
  });

  it("keeps as many of the columns at the end as fit, with two spaces between when they fit so", () => {
    const number = (h: string): Column => ({ header: h, paths: [h], format: "int" });
    const columns = [number("a"), number("b"), number("c"), number("d")];
    // 4 x 10: with two spaces 46, with one 43; at 40 three fit with two spaces (34) and a fourth with
    // none: the last goes, and the rest keep two spaces.
    const fit = fitToWidth(cells(10, 10, 10, 10), columns, [10, 10, 10, 10], 40, true);
    expect(fit).toEqual({ visible: [0, 1, 2], separator: "  " });
  });

  it("cuts a wrapping column's cells only when the wrapping layout is not loaded", () => {
    const columns = [text("reason", { wrap: true, max: 60 })];
    for (const [loaded, length] of [
      [true, 50],
      [false, 20],
    ] as const) {
      const matrix = cells(50);
      const widths = [50];
      fitToWidth(matrix, columns, widths, 20, loaded);
      expect(widths).toEqual([20]);
      expect(matrix[0]![0]!.text.length, String(loaded)).toBe(length);
    }
  });
});
