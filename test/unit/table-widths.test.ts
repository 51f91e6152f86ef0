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
    // At 20 both reach 6 (6 + 6 + 8 + 2 = 22 > 20), so the price goes.
    const narrow = [10, 20, 8];
    expect(fitToWidth(cells(10, 20, 8), columns, narrow, 20, true).visible).toEqual([0, 1]);
    expect(narrow).toEqual([6, 6, 8]);
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
