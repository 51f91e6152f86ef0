import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  alignColumns,
  charWidth,
  displayWidth,
  padEndWidth,
  padStartWidth,
  truncateWidth,
} from "../../src/output/width.js";

// Cells as a terminal draws them, from the Unicode tables and grapheme clusters.

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦
const FLAG = "\u{1F1FA}\u{1F1F8}"; // 🇺🇸
const KEYCAP = "1\uFE0F\u20E3"; // 1️⃣

describe("displayWidth", () => {
  it.each([
    ["🟠 U+1F7E0", "\u{1F7E0}", 2],
    ["🀄 U+1F004", "\u{1F004}", 2],
    ["🈁 U+1F201", "\u{1F201}", 2],
    ["🆎 U+1F18E", "\u{1F18E}", 2],
    ["flag 🇺🇸", FLAG, 2],
    ["keycap 1️⃣", KEYCAP, 2],
    ["ZWJ family", FAMILY, 2],
    ["ZWJ rainbow flag 🏳️‍🌈", "\u{1F3F3}\uFE0F\u200D\u{1F308}", 2],
    ["skin tone on a text-default base ☝🏽", "\u261D\u{1F3FD}", 2],
    ["skin tone on an emoji 👍🏽", "\u{1F44D}\u{1F3FD}", 2],
    ["heart with VS16 ❤️", "\u2764\uFE0F", 2],
    ["heart without VS16 ❤", "\u2764", 1],
    ["a lone regional indicator", "\u{1F1FA}", 1],
    ["CJK", "日本語", 6],
    ["Hangul syllables", "한국어", 6],
    ["a Hangul syllable in jamo", "\u1100\u1161\u11A8", 2],
    ["halfwidth katakana", "ｱｲｳ", 3],
    ["fullwidth Latin", "ＡＢ", 4],
    ["combining accents", "e\u0301a\u0300\u0323", 2],
    ["a zero-width space and a combining mark alone", "\u200B\u0301", 0],
    ["a word joiner and a BOM", "a\u2060b\uFEFF", 2],
    ["the Hangul filler, a blank as wide as a syllable", "\u3164", 2],
    ["ASCII", "PEPE coin", 9],
    ["subscript digits", "0.0₅1537", 8],
    ["Devanagari, as terminals advance over it", "हिन्दी", 5],
  ])("%s", (_, text, cells) => {
    expect(displayWidth(text)).toBe(cells);
  });

  it("adds up clusters among ASCII, colour sequences taking none", () => {
    expect(displayWidth(`a${FAMILY}b${FLAG}c${KEYCAP}`)).toBe(9);
    expect(displayWidth(`\x1b[31m${FAMILY}\x1b[0m 🟠🀄🈁🆎`)).toBe(11);
    expect(displayWidth(`${FAMILY}${FAMILY}`)).toBe(4);
    expect(displayWidth(`${FLAG}${FLAG}${FLAG}`)).toBe(6);
  });

  it("measures a cluster met again the same (the cache), whatever is around it", () => {
    for (let i = 0; i < 3; i++) {
      expect(displayWidth(`x${FAMILY}`)).toBe(3);
      expect(displayWidth(`${FAMILY}`)).toBe(2);
      expect(displayWidth(`${FAMILY}y`)).toBe(3);
    }
  });

  it("on any text, is the sum of its clusters' cells (the fast paths agree with the clusters)", () => {
    // What clusters are made of, often side by side: the fast paths must not miss a join.
    const joins = [
      "\u200D",
      "\uFE0F",
      "\u20E3",
      "\u0301",
      "\u{1F3FD}",
      "\u{1F1FA}",
      "\u1161",
      "\u11A8",
      "\u094D",
    ];
    const bases = [
      "a",
      "1",
      "é",
      "₀",
      "日",
      "\u{1F468}",
      "\u{1F7E0}",
      "\u2764",
      "\u261D",
      "\u1100",
      "न",
      "\uD83D",
      "\r",
      "\n",
    ];
    const piece = fc.oneof(fc.constantFrom(...joins), fc.constantFrom(...bases));
    const segmenter = new Intl.Segmenter();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        const clusters = [...segmenter.segment(text)].map((s) => charWidth(s.segment));
        expect(displayWidth(text)).toBe(clusters.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 3000 },
    );
  });

  it("charWidth is one cluster's cells", () => {
    expect(charWidth("a")).toBe(1);
    expect(charWidth("\u{1F7E0}")).toBe(2);
    expect(charWidth(FAMILY)).toBe(2);
    expect(charWidth(FLAG)).toBe(2);
    expect(charWidth(KEYCAP)).toBe(2);
    expect(charWidth("\u0301")).toBe(0);
    expect(charWidth("字")).toBe(2);
  });
});

describe("truncateWidth", () => {
  it.each([
    ["family", `${FAMILY}${FAMILY}${FAMILY}`, 5, `${FAMILY}${FAMILY}…`],
    ["flag", `${FLAG}${FLAG}${FLAG}`, 4, `${FLAG}…`],
    ["keycap", `${KEYCAP}${KEYCAP}${KEYCAP}`, 4, `${KEYCAP}…`],
    ["accents", "e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…"],
    ["ASCII then a wide cluster", `ab${FAMILY}`, 3, "ab…"],
    ["a wide cluster that fits", `${FAMILY}x`, 3, `${FAMILY}x`],
  ])("never splits a cluster (%s), and fits the cells asked for", (_, text, max, cut) => {
    expect(truncateWidth(text, max)).toBe(cut);
  });

  it("on every cut of names full of clusters: at most the cells asked for, whole clusters only", () => {
    const names = [
      `${FAMILY} family 🟠🀄🈁🆎`,
      `${FLAG}${KEYCAP} 日本語 e\u0301`,
      `🟠${FLAG}${FAMILY}${KEYCAP}\u2764\uFE0F`,
    ];
    const segmenter = new Intl.Segmenter();
    for (const name of names) {
      const whole = [...segmenter.segment(name)].map((s) => s.segment);
      for (let max = 1; max <= displayWidth(name) + 1; max++) {
        const cut = truncateWidth(name, max);
        expect(displayWidth(cut), `${name} at ${max}`).toBeLessThanOrEqual(max);
        const kept = cut.endsWith("…") && cut !== name ? cut.slice(0, -1) : cut;
        const parts = [...segmenter.segment(kept)].map((s) => s.segment);
        expect(parts, `${name} at ${max}`).toEqual(whole.slice(0, parts.length));
      }
    }
  });
});

describe("padding", () => {
  it("pads emoji names to the same cells", () => {
    for (const name of [FAMILY, FLAG, KEYCAP, "\u{1F7E0}", "\u{1F004}", "\u{1F201}", "\u{1F18E}", "ab"]) {
      expect(displayWidth(padEndWidth(name, 6))).toBe(6);
      expect(padEndWidth(name, 6).endsWith("    ")).toBe(true);
      expect(padStartWidth(name, 6).startsWith("    ")).toBe(true);
    }
  });
});

describe("alignColumns", () => {
  it("lines columns up by the cells a terminal draws, two spaces apart, with no trailing space", () => {
    const text = alignColumns([
      ["NAME", "CAP", "NOTE"],
      ["日本語x", "1", ""],
      ["longer", "", "-"],
    ]);
    // 日本語x is four characters and seven cells, the widest cell of its column: "longer" pads to it.
    expect(text).toBe(["NAME     CAP  NOTE", "日本語x  1", "longer        -"].join("\n"));
  });
});
