import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../e2e/fixtures.js";
import { run } from "./harness.js";

// Prices in tables through run() against the sandbox: a price below 0.001 keeps four significant
// digits, its trailing zeros too (0.0₇6300, never 0.0₇63), and an indicator's columns in ta's grid
// share one precision (94.8730 beside 90.0185, never 94.873).

const sandbox = useSandbox();
const dir = useServers().folder();
const at = (args: string[]) =>
  run(["--base-url", sandbox.url, "--api-key", sandbox.apiKey, ...args], dir, { env: { NO_COLOR: "1" } });

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

describe("ta's grid", () => {
  it("writes every interval of an indicator with one precision, in a row of one token", async () => {
    for (const view of ["support", "resistance", "sma"]) {
      const r = await at(["ta", "-c", "base", "--tickers", "VIRTUAL", "--view", view, "-o", "table"]);
      expect(r.code, r.stderr).toBe(0);
      const [head, row] = r.stdout.trimEnd().split("\n");
      const cells = row!.trim().split(/\s+/).slice(1);
      expect(cells.length, head).toBeGreaterThan(3);
      const places = new Set(cells.map((cell) => /\.(\d+)$/.exec(cell)?.[1]?.length));
      expect([...places], `${view}: ${row}`).toHaveLength(1);
    }
  });
});
