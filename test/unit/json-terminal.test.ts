import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { formatJsonForTerminal } from "../../src/terminal/json.js";

const laidOut = (text: string) => formatJsonForTerminal(text, { indent: true, color: false });
const coloured = (text: string) => formatJsonForTerminal(text, { indent: true, color: true });
const kept = (text: string, color = true) => formatJsonForTerminal(text, { indent: false, color });

describe("JSON for a terminal", () => {
  it("lays any JSON out as JSON.stringify(_, null, 2) does", () => {
    for (const value of [
      [],
      {},
      [1, "a", true, false, null],
      { a: { b: [1, { c: [] }, {}], d: "x" }, e: [[[]]] },
      "just a string",
      42,
      null,
      [{ 'key with "quotes" and \\ slashes': 'v\\"' }],
    ]) {
      const expected = `${JSON.stringify(value, null, 2)}\n`;
      expect(laidOut(JSON.stringify(value))).toBe(expected);
      expect(laidOut(JSON.stringify(value, null, 4))).toBe(expected);
      expect(laidOut(` \r\n${JSON.stringify(value, null, "\t")}\n\n`)).toBe(expected);
    }
  });

  it("keeps every digit of every number, as sent", () => {
    const text =
      '{"tiny":0.000000000000000000123456789,"big":123456789012345678901234567890,"e":1.50E+300,"z":-0.0}';
    const out = laidOut(text)!;
    for (const n of ["0.000000000000000000123456789", "123456789012345678901234567890", "1.50E+300", "-0.0"])
      expect(out).toContain(`: ${n}`);
  });

  it("colours keys, strings, numbers, booleans and null apart; punctuation stays plain", () => {
    const out = coloured('{"k":"v","n":1.5,"t":true,"f":false,"z":null}')!;
    expect(out).toBe(
      [
        "{",
        '  \x1b[1;34m"k"\x1b[0m: \x1b[32m"v"\x1b[0m,',
        '  \x1b[1;34m"n"\x1b[0m: \x1b[36m1.5\x1b[0m,',
        '  \x1b[1;34m"t"\x1b[0m: \x1b[33mtrue\x1b[0m,',
        '  \x1b[1;34m"f"\x1b[0m: \x1b[33mfalse\x1b[0m,',
        '  \x1b[1;34m"z"\x1b[0m: \x1b[90mnull\x1b[0m',
        "}",
        "",
      ].join("\n"),
    );
  });

  it("makes server strings inert inside the colours: only its own SGR sequences remain", () => {
    const hostile = JSON.stringify({ "\x1b]52;c;x\x07": "\x1b[2J\u009b31m\u202eevil" });
    const out = coloured(hostile)!;
    expect(out).toContain("\\u001b]52;c;x\\u0007");
    expect(out).toContain("\\u001b[2J\\u009b31m\\u202eevil");
    expect(out.replace(/\x1b\[(?:1;34|32|0)m/g, "")).not.toMatch(
      /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/,
    );
    // Raw controls inside a string (not valid JSON, but a server may send it) are escaped too.
    const raw = coloured('["a\x1b[2Jb\u009b"]')!;
    expect(raw).toContain('"a\\u001b[2Jb\\u009b"');
  });

  it("keeps the layout when asked: NDJSON stays one record a line", () => {
    const ndjson = '{"a":1,"b":[1,2]}\n{"a":2,"b":[]}\n';
    expect(kept(ndjson, false)).toBe(ndjson);
    expect(stripVTControlCharacters(kept(ndjson)!)).toBe(ndjson);
    expect(kept(ndjson)!.split("\n")).toHaveLength(3);
    // Indented, each top-level value gets its own lines.
    expect(laidOut('1 [2]\n{"a":3}')).toBe('1\n[\n  2\n]\n{\n  "a": 3\n}\n');
  });

  it("refuses what is not JSON, so the caller can show it as text", () => {
    for (const text of [
      "",
      "<html>",
      "[1,]",
      '{"a":1,}',
      '{"a"}',
      '{"a":1',
      "[1 2]",
      '{"a" "b"}',
      "01",
      "1.",
      "-",
      "tru",
      "nul",
      "]",
      '"open',
      "[1]]",
      '{"a":1]',
      "[\x1b[2J1]",
    ])
      expect(laidOut(text), text).toBeUndefined();
  });
});
