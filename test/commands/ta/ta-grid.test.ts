import { describe, expect, it } from "vitest";
import { useDemoSandbox } from "../sandbox-runs.js";

// ta's grid, in-process through run() against the sandbox: an indicator's columns share one
// precision (94.8730 beside 90.0185, never 94.873).

const { at } = useDemoSandbox({ NO_COLOR: "1" });

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
