import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactSecrets, secretForms } from "../../src/terminal/secrets.js";

// The redactor passes over text that holds none of a secret's anchors without running its pattern.
// That is only right if every match holds an anchor: text built from the secret's forms, each
// character of it written as is or encoded, must come out as the pattern alone would leave it.

const charForms = (ch: string): string[] => {
  const bytes = [...Buffer.from(ch, "utf8")];
  const hex = (b: number, upper: boolean) => {
    const h = b.toString(16).padStart(2, "0");
    return upper ? h.toUpperCase() : h;
  };
  const forms = [
    ch,
    bytes.map((b) => `%${hex(b, true)}`).join(""),
    bytes.map((b) => `%${hex(b, false)}`).join(""),
    bytes.map((b) => `%25${hex(b, true)}`).join(""),
  ];
  const code = ch.codePointAt(0)!;
  if (code <= 0xffff) forms.push(`\\u${code.toString(16).padStart(4, "0")}`);
  if (ch === " ") forms.push("+");
  if (ch === "/") forms.push("\\/");
  return forms;
};

/** The secret with each character in one of its forms, chosen by `picks`. */
const mixed = (secret: string, picks: number[]) =>
  [...secret].map((ch, i) => {
    const forms = charForms(ch);
    return forms[(picks[i] ?? 0) % forms.length];
  });

const secret = fc.stringMatching(/^[A-Za-z0-9 /+=&_.é-]{4,20}$/);
const filler = fc.stringMatching(/^[a-z0-9 {}":,_.]{0,12}$/);

describe("redactSecrets: the anchors never skip a match", () => {
  it("leaves the same text as the pattern alone, for every way of writing the secret", () => {
    let encoded = 0;
    fc.assert(
      fc.property(
        secret,
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        fc.integer({ min: 0, max: 7 }),
        filler,
        filler,
        (key, picks, wrap, before, after) => {
          const forms = secretForms(key);
          const chars = mixed(key, picks);
          let inner = chars.join("");
          if (wrap === 1) inner = Buffer.from(inner).toString("base64");
          if (wrap === 2) inner = Buffer.from(`x${inner}`).toString("base64url");
          if (wrap === 3) inner = encodeURIComponent(inner);
          if (inner !== key) encoded++;
          const text = `${before}${inner}${after}`;
          const expected = text.replace(forms.pattern, "***");
          expect(redactSecrets(text, [forms])).toBe(expected);
          // Written as a character at a time, the secret is always found.
          if (wrap === 0 || wrap > 3) expect(expected).toContain("***");
        },
      ),
      { numRuns: 2000 },
    );
    // The property is about encoded forms: most runs must have written one.
    expect(encoded).toBeGreaterThan(1000);
  });

  it("passes over text without an anchor, and finds an anchored form", () => {
    const forms = secretForms("ti_sandbox_demo_key_4f9a2c");
    expect(forms.anchors).toEqual(expect.arrayContaining(["ti_sandbox_demo_key_4f9a2c", "%", "\\"]));
    expect(redactSecrets('{"name":"plain"}', [forms])).toBe('{"name":"plain"}');
    expect(redactSecrets("k=ti\\u005fsandbox_demo_key_4f9a2c.", [forms])).toBe("k=***.");
    expect(redactSecrets("k=ti%5Fsandbox_demo_key_4f9a2c.", [forms])).toBe("k=***.");
    // Form-encoded, a space is a + and nothing else changes.
    expect(redactSecrets("q=my+secret+key&x", [secretForms("my secret key")])).toBe("q=***&x");
  });
});
