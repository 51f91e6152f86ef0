import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LosslessNumber, parseJson, stringifyJson } from "../../src/api/json.js";

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
