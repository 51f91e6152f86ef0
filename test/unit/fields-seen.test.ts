import { describe, expect, it } from "vitest";
import { FieldsSeen } from "../../src/commands/data/fields-seen.js";
import { parseJson } from "../../src/json/exact.js";

// What the records carry is the server's: the names a refusal suggests are bounded.

/** A record carrying __proto__, constructor and prototype keys, as each parser reads it. */
const TEXT =
  '{"id":"a","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"token_info":{"prototype":{"polluted":"yes"},"symbol":"AAA"}}';
const records = () => [parseJson(TEXT), JSON.parse(TEXT) as unknown];

describe("fields looked for in the records", () => {
  it("never suggests a key no field name is (a server's 1,000-character key)", () => {
    const seen = new FieldsSeen("ta");
    seen.expect("--sort", "s", false);
    seen.see({ ["s".repeat(1_000)]: 1, symbol: "X" });
    expect(() => seen.checkDeciding()).toThrow(
      '--sort: "s": no record has it in ta (the records have symbol)',
    );
  });

  it("never suggests a key with an escape sequence or a character no field name has", () => {
    const seen = new FieldsSeen("market");
    seen.expect("--sort", "volatility", false);
    // Shown on stderr without their escapes, these would read "evil.volatility" and "volatilit".
    seen.see({ "\x1b]0;PWNED\x07\x1b[2Jevil": { volatility: "1" }, "volatilit\x1b[5m": 1, "vol atility": 2 });
    expect(() => seen.checkDeciding()).toThrow(/^--sort: "volatility": no record has it in market$/);
  });

  it("a field a record carries, even null, is seen; one named for a column only is a note", () => {
    const seen = new FieldsSeen("market");
    seen.expect("--where", "score", false);
    seen.expect("--fields", "token_info.image", true);
    seen.see({ score: null, token_info: { symbol: "X" } });
    expect(() => seen.checkDeciding()).not.toThrow();
    expect(seen.notes()).toEqual([
      '--fields: "token_info.image": no record had it; its column is empty in market',
    ]);
  });

  it("a record's own __proto__ key never counts as the field __proto__", () => {
    for (const record of records()) {
      const seen = new FieldsSeen("market");
      seen.expect("--where", "__proto__", false);
      seen.see(record);
      expect(() => seen.checkDeciding()).toThrow(/^--where: "__proto__": no record has it in market$/);
    }
  });

  it("a record's __proto__, constructor and prototype keys are never offered as a suggestion", () => {
    for (const record of records()) {
      const seen = new FieldsSeen("market");
      seen.expect("--sort", "polluted", false);
      seen.see(record);
      expect(() => seen.checkDeciding()).toThrow(/^--sort: "polluted": no record has it in market$/);
    }
  });
});
