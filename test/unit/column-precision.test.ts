import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { IO } from "../../src/io.js";
import { type Column, col } from "../../src/output/columns.js";
import { renderTable } from "../../src/output/table.js";

// One precision a column, chosen from the column's values; no 7.12% beside
// 52.0%, $9.5M beside $8.87M, 4.057 beside 4.0201.

const io = () =>
  new IO({
    stdout: Object.assign(new PassThrough(), { isTTY: false }),
    stderr: new PassThrough(),
    env: { NO_COLOR: "1" },
  });

/** The cells of the table's one column, trimmed, header left out. */
function cells(column: Column, values: unknown[]): string[] {
  const text = renderTable(
    values.map((v) => ({ v })),
    [column],
    io(),
  ).text;
  return text
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => line.trim());
}

/** The number of decimals after the point (the unit and sign left out). */
const places = (cell: string) => /\.(\d+)/.exec(cell)?.[1]?.length ?? 0;

describe("one precision a column", () => {
  it("prices: the places of the column, trailing zeros kept where a neighbour needs them", () => {
    expect(cells(col("P", "v", "price"), ["4.057", "4.0201", "12.5"])).toEqual([
      "4.0570",
      "4.0201",
      "12.5000",
    ]);
    expect(cells(col("P", "v", "price"), ["1234.5", "63512.349"])).toEqual(["1,234.50", "63,512.35"]);
    expect(cells(col("P", "v", "price"), ["1234.5", "4.5"])).toEqual(["1,234.50", "4.50"]);
    // Below 1 a price keeps four significant digits whatever its neighbours.
    const mixed = cells(col("P", "v", "price"), ["4.0201", "0.052499", "0.3698750479"]);
    expect(mixed).toEqual(["4.0201", "0.05250", "0.3699"]);
  });

  it("shares: two places in every row", () => {
    const shown = cells(col("S", "v", "share"), ["7.1249", "52", "0.5", "100"]);
    expect(shown).toEqual(["7.12%", "52.00%", "0.50%", "100.00%"]);
    expect(new Set(shown.map(places))).toEqual(new Set([2]));
  });

  it("compact amounts: two places beside a unit or without one", () => {
    const shown = cells(col("U", "v", "usd"), ["9500000", "8870000", "999999.99", "1200", "512.5", "0.004"]);
    expect(shown).toEqual(["$9.50M", "$8.87M", "$1.00M", "$1.20K", "$512.50", "$0.004"]);
    expect(cells(col("A", "v", "amount"), ["0.12345", "0.5"])).toEqual(["0.1235", "0.5000"]);
    expect(cells(col("U", "v", "usd"), ["-0.03", "0.5"])).toEqual(["-$0.03", "$0.50"]);
  });

  it("columns of one group share one precision: a grid's row reads alike", () => {
    const grid = ["a", "b", "c"].map((k) => col(k.toUpperCase(), k, "price", { group: "support" }));
    const text = renderTable([{ a: "90.0185", b: "94.873", c: "103.1441" }], grid, io()).text;
    expect(text.trimEnd().split("\n")[1]!.trim().split(/\s+/)).toEqual(["90.0185", "94.8730", "103.1441"]);
    // Without a group, each column of one value is a column of one.
    const alone = ["a", "b"].map((k) => col(k.toUpperCase(), k, "price"));
    const apart = renderTable([{ a: "90.0185", b: "94.873" }], alone, io()).text;
    expect(apart.trimEnd().split("\n")[1]!.trim().split(/\s+/)).toEqual(["90.0185", "94.873"]);
  });

  it("a column of one writes a value as the value alone does", () => {
    expect(cells(col("P", "v", "price"), ["0.5"])).toEqual(["0.5"]);
    expect(cells(col("P", "v", "price"), ["0.99999"])).toEqual(["1.00"]);
  });
});
