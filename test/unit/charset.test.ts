import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/output/width.js";
import { asciiLocale, toAscii } from "../../src/terminal/charset.js";

describe("the terminal's character set", () => {
  it("is ASCII when the first locale variable set is not UTF-8", () => {
    expect(asciiLocale({ LANG: "C" })).toBe(true);
    expect(asciiLocale({ LANG: "POSIX" })).toBe(true);
    expect(asciiLocale({ LANG: "en_US.ISO-8859-1" })).toBe(true);
    expect(asciiLocale({ LC_ALL: "C", LANG: "en_US.UTF-8" })).toBe(true);
    expect(asciiLocale({ LC_CTYPE: "en_US.utf8", LANG: "C" })).toBe(false);
    expect(asciiLocale({ LANG: "C.UTF-8" })).toBe(false);
    expect(asciiLocale({})).toBe(false);
  });

  it("writes each drawing symbol as one ASCII character, so widths hold", () => {
    const drawn = "✓ ✗ … → · • ━ ─│┤├┼┬┴┌┐└┘╭╮╰╯╶╴ BAKO";
    const ascii = toAscii(drawn);
    expect(ascii).toMatch(/^[\x20-\x7e]*$/);
    expect(displayWidth(ascii)).toBe(displayWidth(drawn));
    expect(toAscii("plain text")).toBe("plain text");
    // Which letter stands for which symbol: a ✓ must not read as "n".
    expect(toAscii("✓✗…→")).toBe("yn~>");
  });
});
