import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/contract/limits.js";
import {
  JsonDepthError,
  LosslessNumber,
  numberTokenRoundTrips,
  parseJson,
  stringifyJson,
} from "../../src/json/exact.js";

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

describe("parseJson: depth and size", () => {
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

describe("parseJson: the native path and its shortcuts", () => {
  it("plainNumber's claim: every token it calls plain survives a double (property)", () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) => d.join(""));
    const token = fc
      .tuple(
        fc.boolean(),
        fc.oneof(
          fc.constant("0"),
          fc.tuple(fc.constantFrom(..."123456789"), digits(0, 16)).map(([a, b]) => a + b),
        ),
        fc.option(digits(1, 16), { nil: undefined }),
        fc.option(fc.tuple(fc.constantFrom("e", "E", "e+", "e-"), digits(1, 3)), { nil: undefined }),
      )
      .map(
        ([neg, int, frac, exp]) =>
          `${neg ? "-" : ""}${int}${frac ? `.${frac}` : ""}${exp ? exp.join("") : ""}`,
      );
    let plainOnes = 0; // counted: the property says something only about tokens called plain
    fc.assert(
      fc.property(token, (raw) => {
        const { plain, roundTrips } = numberTokenRoundTrips(raw);
        if (!plain) return;
        plainOnes++;
        expect(roundTrips, raw).toBe(true);
      }),
      { numRuns: 20_000 },
    );
    expect(plainOnes).toBeGreaterThan(100);
  });

  it("calls plain only what it can vouch for", () => {
    for (const raw of ["0", "7", "-7", "0.5", "-0.5", "0.000001", "123456789012345", "1234567890123.5"])
      expect(numberTokenRoundTrips(raw), raw).toEqual({ plain: true, roundTrips: true });
    for (const raw of [
      "-0",
      "1.50",
      "1.0",
      "1e5",
      "0.0000001",
      "-0.0000001",
      "1234567890123456",
      "01",
      "1.",
      ".5",
    ])
      expect(numberTokenRoundTrips(raw).plain, raw).toBe(false);
  });

  it("finds numbers that lose digits wherever they are nested", () => {
    for (const text of ['[[["a"],[1.10]]]', '{"a":{"b":[{"c":[null,true,"x",1e5]}]}}', '["x",-0]']) {
      expect(stringifyJson(parseJson(text)), text).toBe(text);
    }
    const value = parseJson('{"s":"1.10","a":[["0.0000001"]]}');
    expect(JSON.stringify(value)).toBe('{"s":"1.10","a":[["0.0000001"]]}');
  });

  it("keeps exact numbers in a wide text with more brackets than the depth limit", () => {
    const records = Array.from(
      { length: 600 },
      (_, i) => `{"id":"${i}","p":{"v":${i === 599 ? "1.10" : i}}}`,
    );
    const text = `{"data":[${records.join(",")}]}`;
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it("fails invalid text the same way on both paths", () => {
    // With a number that needs the exact parser, the error is the exact parser's, as before.
    expect(() => parseJson('{"a":1.10,}')).toThrow(/^expected a property name at position 10$/);
    // Without one, the native parser's.
    let native = "";
    try {
      JSON.parse('{"a":1,}');
    } catch (error) {
      native = (error as Error).message;
    }
    expect(() => parseJson('{"a":1,}')).toThrow(native);
  });

  it("reads __proto__ keys as own data, never as a prototype, on both paths", () => {
    for (const n of ["1", "1.10"]) {
      const value = parseJson(`{"__proto__":{"polluted":${n}},"a":[{"__proto__":null}]}`) as Record<
        string,
        unknown
      >;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.hasOwn(value, "__proto__")).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(stringifyJson(value)).toBe(`{"__proto__":{"polluted":${n}},"a":[{"__proto__":null}]}`);
    }
  });
});
