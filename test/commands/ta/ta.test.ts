import { describe, expect, it } from "vitest";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel ta` run in-process through run() against the sandbox: both chains paged when no chain
// is given, and the grid shows only the intervals the server sent.

// TA in its older flat form here; the documented form (the sandbox's default) is tested in
// test/e2e/ta/ta-shapes.test.ts.
const { cli } = useKeyedSandbox("ta", { taStyle: "flat" });

describe("ta", () => {
  it("ta pages across both chains when no chain is given, and leaves out intervals the server does not send", async () => {
    const r = await cli(["ta", "--limit", "40", "--json"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(40);
    const young = records.find((x) => !("price_change_percentage_30d" in x));
    expect(young).toBeDefined();
    const youngSymbol = (young!.token_info as { symbol: string }).symbol;
    const alone = await cli(
      [
        "ta",
        "-c",
        young!.token_info ? String((young!.token_info as { chain: string }).chain) : "base",
        "--tickers",
        youngSymbol,
      ],
      {
        TOKENINTEL_FORCE_TTY: "1",
        NO_COLOR: "1",
      },
    );
    // The grid shows the intervals the server sent and invents none.
    expect(alone.stdout.split("\n")[0]).toMatch(/^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+RSI$/);
    const mixed = await cli(["ta", "-c", "base", "--limit", "8"], {
      TOKENINTEL_FORCE_TTY: "1",
      NO_COLOR: "1",
    });
    const lines = mixed.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w\s+30d\s+RSI$/);
    expect(lines.some((l) => /\s-\s+-\s+\d+\.\d/.test(l))).toBe(true);
  });
});
