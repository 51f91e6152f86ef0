import { describe, expect, it } from "vitest";
import type { Metric } from "../../src/commands/history/axis.js";
import { renderCharts } from "../../src/commands/history/render.js";
import type { HistorySeries } from "../../src/commands/history/run.js";

// A chart's axis is labelled with the data's own precision, one rule for
// every row, and no two rows read alike.

function series(symbol: string, values: string[]): HistorySeries {
  return {
    token_id: symbol,
    token_symbol: symbol,
    token_address: null,
    chain: "base",
    named: symbol,
    days: values.map((v, i) => ({
      date_time: `2026-01-${String(i + 1).padStart(2, "0")}`,
      usd_price: v,
      total_volume: v,
      market_cap: v,
    })),
  };
}

function chart(values: string[], metric?: Metric): string {
  return renderCharts([series("X", values)], { metric, columns: 60, rows: 30, color: false, height: 8 });
}

/** The y-axis labels: what stands before each row's axis character. */
function axisLabels(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /[┤┼]/.test(line))
    .map((line) => line.split(/[┤┼]/)[0]!.trim());
}

const decimals = (label: string) => /\.(\d+)/.exec(label.replace(/[₀-₉]/g, ""))?.[1]?.length ?? 0;

describe("history chart axis", () => {
  it("labels a flat series with its own value, never a rounded row number", () => {
    const text = chart(["4.7621", "4.7621", "4.7621", "4.7621"]);
    expect(axisLabels(text)).toEqual(["$4.7621"]);
    expect(axisLabels(chart(["0.052499", "0.052499"]))).toEqual(["$0.0525"]);
  });

  it("writes a stablecoin's rows apart, never all $1.00", () => {
    const labels = axisLabels(chart(["1.0001", "0.9998", "1.0000", "0.9999"]));
    expect(labels.length).toBeGreaterThan(2);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).not.toContain("$1.00");
  });

  it("writes every label of one axis with the same places ($4.4200 beside $4.2934)", () => {
    const labels = axisLabels(chart(["4.42", "4.2934", "4.35"]));
    expect(new Set(labels.map(decimals))).toEqual(new Set([4]));
    expect(labels[0]).toBe("$4.4200");
    expect(labels.at(-1)).toBe("$4.2934");
  });

  it("never repeats a label for tiny prices, and keeps their four significant digits", () => {
    const labels = axisLabels(chart(["0.00000120", "0.00000125", "0.00000121", "0.00000123"]));
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.at(-1)).toBe("$0.0₅1200");
    expect(labels[0]).toBe("$0.0₅1250");
  });

  it("writes a volume axis in one unit with one precision, each row apart", () => {
    const labels = axisLabels(chart(["1234000", "1236000", "1235000"], "volume"));
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.every((l) => /^\$1\.\d{4}M$/.test(l))).toBe(true);
  });

  it("the summary line reads the same values as the axis", () => {
    const text = chart(["4.42", "4.2934", "4.35"]);
    expect(text).toContain("$4.4200 → $4.3500");
    expect(text).toContain("low $4.2934 on 2026-01-02");
  });

  it("writes the normalized chart's percent rows apart", () => {
    const text = renderCharts(
      [series("A", ["100", "100.01", "100.02"]), series("B", ["50", "50.004", "50.01"])],
      {
        normalize: true,
        columns: 60,
        rows: 30,
        color: false,
        height: 8,
      },
    );
    const labels = axisLabels(text);
    expect(labels.length).toBeGreaterThan(2);
    expect(new Set(labels).size).toBe(labels.length);
    // Signed percentages, every row with the same places: the fewest that tell the rows apart.
    expect(
      labels.every((l) => /^([+-]\d+\.\d+|0\.0+)%$/.test(l)),
      labels.join(" "),
    ).toBe(true);
    const places = new Set(labels.map((l) => l.split(".")[1]!.length - 1));
    expect(places.size).toBe(1);
    expect([...places][0]).toBeLessThanOrEqual(3);
  });
});

describe("history chart lines", () => {
  const normalized = (color: boolean) =>
    renderCharts(
      [series("A", ["100", "110", "120", "130", "125"]), series("B", ["50", "49", "47", "52", "55"])],
      { normalize: true, columns: 60, rows: 30, color, height: 8 },
    );
  /** The plot's rows: the lines with an axis character, and what follows it. */
  const rows = (text: string) =>
    text
      .split("\n")
      .filter((line) => /[┤┼]/.test(line))
      .map((line) => ({
        label: line.split(/[┤┼]/)[0]!.trim(),
        tick: line.includes("┼"),
        plot: line.split(/[┤┼]/)[1]!,
      }));

  it("ticks the axis (┼) only where a line starts, whatever row asciichart takes for zero", () => {
    // Both lines start at +0% (each token's first day); asciichart also ticked the row at +24.86%.
    const drawn = rows(normalized(false));
    const ticked = drawn.filter((r) => r.tick);
    expect(ticked, drawn.map((r) => r.label).join(" ")).toHaveLength(1);
    expect(ticked[0]!.plot[0]).not.toBe(" ");
    expect(Math.abs(Number.parseFloat(ticked[0]!.label))).toBeLessThan(3);
    // A price from 0.0001 to 1: the line starts at the bottom row, asciichart ticked the top one too.
    const price = rows(chart(["0.0001", "0.5", "1", "0.7"]));
    expect(price.filter((r) => r.tick).map((r) => r.label)).toEqual(["$0.00010"]);
  });

  it("without colour, draws each token with its own character and names it in the legend", () => {
    const text = normalized(false);
    const lines = text.split("\n");
    expect(lines[1]).toBe("* A  o B");
    const plot = rows(text)
      .map((r) => r.plot)
      .join("");
    expect(plot).toContain("*");
    expect(plot).toContain("o");
    expect(plot).not.toMatch(/[─╭╮╰╯│]/);
    // In colour, each line in its colour, drawn as ever.
    const coloured = normalized(true);
    expect(coloured).toMatch(/\x1b\[3\dm[─╭╮╰╯│]/);
    expect(coloured).not.toContain("* A");
  });
});
