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

/**
 * A line break as a server wrapping long lines writes it, raw or JSON-escaped, and indentation; and
 * the spaces it becomes where text is made one line.
 */
const BREAKS = ["\n", "\r\n", "\n  ", "\n\t", "\\n", "\\r\\n", "\\n    ", "\\n\\t", " ", "     "];

/** The pieces with a break from BREAKS (picked by `kind`) before the piece at each of `at`. */
const wrapped = (pieces: string[], at: number[], kind: number) =>
  pieces
    .map((piece, i) => (i > 0 && at.includes(i) ? `${BREAKS[kind % BREAKS.length]}${piece}` : piece))
    .join("");

describe("redactSecrets: a secret folded in case, in hex, or wrapped across lines", () => {
  it("the anchors and the line-break check never skip a match, and the long forms are found", () => {
    let split = 0;
    fc.assert(
      fc.property(
        secret,
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.integer({ min: 1, max: 19 }), { maxLength: 3 }),
        fc.nat(),
        fc.boolean(),
        fc.stringMatching(/^[a-z0-9 \n\t{}":,_.]{0,12}$/),
        fc.stringMatching(/^[a-z0-9 \n\t{}":,_.]{0,12}$/),
        (key, picks, casing, at, kind, plain, before, after) => {
          const forms = secretForms(key);
          const cased = [key, key.toUpperCase(), key.toLowerCase()][casing]!;
          // Each character as is (plain: no anchor but the break) or each in one of its forms, in
          // the casing picked, broken before the pieces `at`.
          const inner = wrapped(plain ? [...cased] : (mixed(cased, picks) as string[]), at, kind);
          if (plain && /\n/.test(inner)) split++;
          const text = `${before}${inner}${after}`;
          const expected = text.replace(forms.pattern, "***");
          expect(redactSecrets(text, [forms])).toBe(expected);
          // Found when long enough to be folded or broken, each break between two characters that
          // are not blank; else when written in its own case and unbroken.
          const chars = [...key];
          const breaks = at.filter((i) => i < chars.length);
          const breakable = breaks.every((i) => !/[ \t]/.test(chars[i - 1]! + chars[i]!));
          if (chars.length >= 8 ? breakable : cased === key && breaks.length === 0)
            expect(expected).toContain("***");
        },
      ),
      { numRuns: 1500 },
    );
    expect(split).toBeGreaterThan(120);
  });

  const KEY = "ti_live_9fA2c7Qx/kZ+81";
  const forms = [secretForms(KEY)];
  const hex = Buffer.from(KEY).toString("hex");
  it.each([
    ["upper-cased", KEY.toUpperCase()],
    ["lower-cased", KEY.toLowerCase()],
    ["hex", hex],
    ["HEX", hex.toUpperCase()],
    ["wrapped, LF", `${KEY.slice(0, 9)}\n${KEY.slice(9)}`],
    ["wrapped, CRLF and indented", `${KEY.slice(0, 5)}\r\n        ${KEY.slice(5)}`],
    ["wrapped twice, tab-indented", `${KEY.slice(0, 4)}\n\t${KEY.slice(4, 12)}\n\t${KEY.slice(12)}`],
    ["wrapped, JSON-escaped", `${KEY.slice(0, 9)}\\n    ${KEY.slice(9)}`],
    ["upper-cased and wrapped", `${KEY.toUpperCase().slice(0, 11)}\n  ${KEY.toUpperCase().slice(11)}`],
    ["wrapped, then made one line", `${KEY.slice(0, 9)}     ${KEY.slice(9)}`],
  ])("%s", (_, form) => {
    const out = redactSecrets(`{"x":1}\nsaid: ${form} (end)\n{"x":2}`, forms);
    expect(out).toBe('{"x":1}\nsaid: *** (end)\n{"x":2}');
  });

  it("hex inside a longer hex dump", () => {
    const dump = Buffer.from(`key=${KEY};`).toString("hex");
    expect(redactSecrets(dump, forms)).toBe(`${Buffer.from("key=").toString("hex")}***3b`);
  });

  it("a short key: only as written, in its encodings and in hex, never folded or split", () => {
    const short = [secretForms("Ab3x_k")];
    const text = "Ab3x_k|AB3X_K|ab3x_k|Ab3\nx_k|Ab3 x_k";
    expect(redactSecrets(text, short)).toBe(`***${text.slice(6)}`);
    expect(redactSecrets(Buffer.from("Ab3x_k").toString("hex"), short)).toBe("***");
  });

  it("ordinary text with line breaks is left alone, and the check passes over it", () => {
    const text = '{"id":"a","name":"Token A"}\n{"id":"b","name":"Token B"}\n  indented\r\nline\n';
    expect(redactSecrets(text, forms)).toBe(text);
    expect(forms[0]!.pattern.test(text)).toBe(false);
  });
});
