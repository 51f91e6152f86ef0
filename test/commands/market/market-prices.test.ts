import { describe, expect, it } from "vitest";
import { useDemoSandbox } from "../sandbox-runs.js";

// Prices in market's table, in-process through run() against the sandbox: a price below 0.001 keeps
// four significant digits, its trailing zeros too (0.0₇6300, never 0.0₇63).

const { at } = useDemoSandbox({ NO_COLOR: "1" });

const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";

/** The zeros after the point and the significant digits a price cell shows: "0.0₇6300" → [7, "6300"]. */
function digitsOf(cell: string): [zeros: number, digits: string] | undefined {
  const m = /^0\.(?:0([₀-₉]+))?(\d+)$/.exec(cell);
  if (!m) return undefined;
  if (m[1]) return [Number([...m[1]].map((c) => SUBSCRIPT.indexOf(c)).join("")), m[2]!];
  const zeros = /^0*/.exec(m[2]!)![0].length;
  return [zeros, m[2]!.slice(zeros)];
}

/** The cells of one column of a table, by its header (columns split on runs of 2+ spaces). */
function column(table: string, header: string): string[] {
  const [head, ...rows] = table.trimEnd().split("\n");
  const index = head!
    .trim()
    .split(/\s{2,}/)
    .indexOf(header);
  expect(index, `${header} in ${head}`).toBeGreaterThanOrEqual(0);
  return rows.map((row) => row.trim().split(/\s{2,}/)[index]!);
}

describe("prices below 0.001", () => {
  it("keep four significant digits, trailing zeros included, in market's PRICE column", async () => {
    const small: string[] = [];
    for (const chain of ["base", "solana"]) {
      const r = await at(["market", "-c", chain, "--limit", "300", "-o", "table"]);
      expect(r.code, r.stderr).toBe(0);
      for (const cell of column(r.stdout, "PRICE")) {
        const parts = digitsOf(cell);
        if (parts && parts[0] >= 3) small.push(cell);
      }
    }
    expect(small.filter((cell) => digitsOf(cell)![1].length !== 4)).toEqual([]);
    // The sandbox's data has hundreds of them, some whose fourth digit rounds to 0 (0.0₆2760).
    expect(small.length).toBeGreaterThan(100);
    expect(small.filter((cell) => /0$/.test(cell)).length).toBeGreaterThan(5);
  });
});
