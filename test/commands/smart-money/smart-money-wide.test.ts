import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/output/width.js";
import { useDemoSandbox } from "../sandbox-runs.js";

// smart-money --wide on a terminal, in-process through run() against the sandbox: the symbol never
// cut, the extra columns kept as far as they fit, the ones left out counted.

const { at } = useDemoSandbox({ NO_COLOR: "1" });

const TICKERS = ["--tickers", "VIRTUAL,AIXBT,GAME"];

/** SYMBOL, IN, OUT and NET for three windows, then (--wide) six token amounts and the address. */
const HEADERS = [
  "SYMBOL",
  ...["24H", "7D", "30D"].flatMap((w) => [`IN ${w}`, `OUT ${w}`, `NET ${w}`]),
  ...["24H", "7D", "30D"].flatMap((w) => [`TOK IN ${w}`, `TOK OUT ${w}`]),
  "ADDRESS",
];

describe("smart-money --wide on a terminal", () => {
  const wide = (columns: number) =>
    at(["smart-money", ...TICKERS, "--wide"], { TOKENINTEL_FORCE_TTY: "1", COLUMNS: String(columns) });

  it("never cuts the symbol, keeps as many extra columns as fit, and says how many were left out", async () => {
    const kept: number[] = [];
    for (const columns of [100, 120, 160]) {
      const r = await wide(columns);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(lines.slice(1).map((line) => line.split(" ")[0])).toEqual(["VIRTUAL", "AIXBT", "GAME"]);
      const hidden = Number(/\((\d+) more columns? did not fit/.exec(r.stderr)?.[1] ?? 0);
      // The columns in their order, the ones left out from the end.
      const shown = HEADERS.slice(0, HEADERS.length - hidden).join(" ");
      expect(lines[0]!.trim().split(/\s+/).join(" "), r.stderr).toBe(shown);
      kept.push(HEADERS.length - hidden - 10);
    }
    // At 100 the ten columns fill the line; wider, the extra columns come back one by one.
    expect(kept[0]).toBe(0);
    expect(kept[1]).toBeGreaterThan(0);
    expect(kept[2]).toBeGreaterThan(kept[1]!);
  });
});
