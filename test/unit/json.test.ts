import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonDepthError, LosslessNumber, parseJson, stringifyJson } from "../../src/api/json.js";
import { MAX_JSON_DEPTH } from "../../src/api/limits.js";

describe("parseJson / stringifyJson", () => {
  it("keeps numbers a double cannot hold, and writes them back as sent", () => {
    const text =
      '{"a":123456789012345678901234567890,"b":0.000000000123456789012345,"c":1.10,"d":1e5,"e":-0,"f":42,"g":"1.10"}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value.a).toBeInstanceOf(LosslessNumber);
    expect((value.a as LosslessNumber).raw).toBe("123456789012345678901234567890");
    expect(value.f).toBe(42);
    expect(value.g).toBe("1.10");
    expect(stringifyJson(value)).toBe(text);
  });

  it("uses plain numbers when every number round-trips", () => {
    const value = parseJson('{"x":[1,2.5,-3,{"y":null,"z":true}],"s":"a:123456789012345678901"}');
    expect(value).toEqual({ x: [1, 2.5, -3, { y: null, z: true }], s: "a:123456789012345678901" });
  });

  it("handles a bare top-level number that would lose digits", () => {
    expect(stringifyJson(parseJson("12345678901234567890123"))).toBe("12345678901234567890123");
  });

  it("rejects invalid JSON on both paths", () => {
    expect(() => parseJson('{"a":1,}')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":1.10,')).toThrow(SyntaxError);
    expect(() => parseJson("<html>")).toThrow(SyntaxError);
  });

  it("indents like JSON.stringify", () => {
    const v = parseJson('{"a":[1.10,{"b":2}],"c":{}}');
    expect(stringifyJson(v, 2)).toBe(
      '{\n  "a": [\n    1.10,\n    {\n      "b": 2\n    }\n  ],\n  "c": {}\n}',
    );
  });

  it("agrees with JSON.parse on any JSON value (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(stringifyJson(parseJson(text))).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it("never throws anything but SyntaxError on arbitrary text (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          parseJson(s);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("parseJson: depth and size (issue 10, item 9)", () => {
  const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

  it("accepts nesting up to MAX_JSON_DEPTH and refuses one level more, on both paths", () => {
    expect(MAX_JSON_DEPTH).toBe(512);
    for (const inner of ["1", "1.10"]) {
      expect(() => parseJson(nested(MAX_JSON_DEPTH, inner))).not.toThrow();
      expect(() => parseJson(nested(MAX_JSON_DEPTH + 1, inner))).toThrow(JsonDepthError);
    }
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseJson(objects)).toThrow(/^JSON nested deeper than 512 levels at position 2560$/);
    expect(() => parseJson(nested(10), 9)).toThrow(JsonDepthError);
  });

  it("refuses 100,000 levels with a SyntaxError, never a stack overflow", () => {
    for (const text of [nested(100_000), nested(100_000, "1.10"), "[".repeat(100_000)]) {
      let error: unknown;
      try {
        parseJson(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(JsonDepthError);
      expect(error).toBeInstanceOf(SyntaxError);
    }
  });

  it("does not count brackets inside strings, whatever backslashes precede a quote", () => {
    const deepText = JSON.stringify({ s: "[".repeat(5000), t: 'a\\"[[[', u: "\\", v: '\\\\"{{' });
    expect(parseJson(deepText)).toEqual(JSON.parse(deepText));
    const exact = deepText.replace("{", '{"n":1.10,');
    expect(stringifyJson(parseJson(exact))).toBe(exact);
  });

  it("reads a string over 10 MB, with escapes, on both paths", () => {
    const escapes = '\\"q\\\\ \\u00e9\\n'.repeat(1_000_000);
    const long = `${"a".repeat(6_000_000)}${escapes}`;
    const expected = JSON.parse(`"${long}"`) as string;
    expect(long.length).toBeGreaterThan(10_000_000);
    expect((parseJson(`{"s":"${long}","n":1}`) as { s: string }).s).toBe(expected);
    const exact = parseJson(`{"s":"${long}","n":123456789012345678901234567890}`) as {
      s: string;
      n: LosslessNumber;
    };
    expect(exact.s).toBe(expected);
    expect(exact.n.raw).toBe("123456789012345678901234567890");
  });

  it("keeps numbers of any length digit for digit", () => {
    const digits = "9".repeat(5000);
    const text = `{"a":${digits},"b":-0.${digits}e-7,"c":1E+2}`;
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it("refuses malformed numbers on the exact path", () => {
    for (const text of ["[01,1.10]", "[1.,1.10]", "[-,1.10]", "[1e,1.10]", "[1.10,.5]", "[+1,1.10]"]) {
      expect(() => parseJson(text), text).toThrow(SyntaxError);
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
    }
  });

  it("agrees with JSON.parse on strings full of quotes and backslashes (property)", () => {
    const tricky = fc.string({ unit: fc.constantFrom("\\", '"', "[", "{", "]", "}", "1", ".", "e", "a") });
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 5 }), fc.boolean(), (strings, exact) => {
        const text = JSON.stringify({ s: strings, n: exact ? "@" : 1 }).replace('"@"', "1.10");
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
