import { describe, expect, it } from "vitest";
import { splitDecimal } from "../../src/output/table-widths.js";
import { displayWidth } from "../../src/output/width.js";
import { tableCases } from "./table-layout.cases.js";

// Table layout pinned byte for byte: every market view (with and without --wide), --columns, piped
// and on terminals 160 to 12 columns wide, with and without colour, highlighted cells, the cells a
// watch compares. The golden file matches the tables as drawn before cli-table3 was handed whole
// lines, except where that drawing padded cells by string-width's count instead of the table's own
// (U+200B, Devanagari virama, ❤️): there rows came out misaligned and wider than the terminal.
// After an intended change: npx vitest run test/unit/table-layout.test.ts -u (vitest shows the diff
// first, and rewrites the file only when asked).

describe("table layout", () => {
  const cases = tableCases();

  it("every case renders exactly as pinned", async () => {
    await expect(`${JSON.stringify(cases, null, 2)}\n`).toMatchFileSnapshot("./table-layout.golden.json");
  });

  it("fits the terminal: no line wider than asked (a single column excepted), every row as wide", () => {
    for (const [name, text] of Object.entries(cases)) {
      const width = /^(\S+) (\d+)/.exec(name);
      if (!width || width[2] === "12") continue;
      const lines = text.split("\n").filter((line) => line && !line.startsWith("hidden"));
      for (const line of lines)
        expect(displayWidth(line), `${name}: ${line}`).toBeLessThanOrEqual(Number(width[2]));
    }
  });
});

describe("splitDecimal", () => {
  // The split it replaced, kept here as the reference.
  const reference = (text: string): [string, string] => {
    if (text === "-") return [text, ""];
    const m = /^(.*?)((?:\.[0-9₀-₉]+)?[^0-9₀-₉.,]*)$/.exec(text);
    return m ? [m[1]!, m[2]!] : [text, ""];
  };

  it("splits like the reference on numbers as cells show them", () => {
    for (const text of [
      "+1.23%",
      "-",
      "",
      "0.0₄8414",
      "1,234.50",
      "$1.2M",
      "84.2 OB",
      ".5",
      "1.",
      "1.2.3",
      "1e400",
    ])
      expect(splitDecimal(text), text).toEqual(reference(text));
  });

  it("splits like the reference on any text (random strings of digits, points, commas, breaks)", () => {
    const alphabet = [
      "0",
      "7",
      "₄",
      ".",
      ",",
      "%",
      "-",
      "+",
      "$",
      "a",
      " ",
      "\n",
      "\r",
      "\u2028",
      "\u2029",
      "…",
    ];
    let seed = 7;
    const next = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    };
    for (let n = 0; n < 20_000; n++) {
      let text = "";
      for (let len = next() % 9; len > 0; len--) text += alphabet[next() % alphabet.length];
      expect(splitDecimal(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });
});
