import { afterEach, describe, expect, it } from "vitest";
import { flatten, getPath, pickPaths } from "../../src/json/dot-paths.js";
import { parseJson } from "../../src/json/exact.js";

// A server's record may carry keys named __proto__, constructor and prototype (JSON.parse and the
// exact parser both make them own properties): they are data, never a step of a path, and nothing
// built from a record or a path is written through a prototype.

const TEXT =
  '{"id":"a","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"token_info":{"prototype":{"polluted":"yes"},"symbol":"AAA"}}';
/** The record as each parser reads it. */
const records = () => [parseJson(TEXT), JSON.parse(TEXT) as unknown];
const polluted = () => ({}) as Record<string, unknown>;

afterEach(() => {
  // A failing run of these tests must not leave the worker's other files a polluted prototype.
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe("dot paths through keys JavaScript objects answer to", () => {
  it("getPath reads nothing through __proto__, constructor or prototype, even where the record has them", () => {
    for (const record of records()) {
      for (const path of [
        "__proto__",
        "__proto__.polluted",
        "constructor",
        "constructor.prototype.polluted",
        "token_info.prototype",
        "token_info.prototype.polluted",
      ])
        expect(getPath(record, path), path).toBeUndefined();
      expect(getPath(record, "token_info.symbol")).toBe("AAA");
    }
  });

  it("pickPaths keeps the other paths and writes nothing through a prototype", () => {
    for (const record of records()) {
      const out = pickPaths(record, [
        "__proto__.polluted",
        "constructor.prototype.polluted",
        "token_info.prototype.polluted",
        "token_info.symbol",
        "id",
      ]);
      expect(polluted().polluted).toBeUndefined();
      expect(JSON.stringify(out)).toBe('{"token_info":{"symbol":"AAA"},"id":"a"}');
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    }
  });

  it("flatten keeps such a key as one leaf holding its value whole, never as a step", () => {
    for (const record of records()) {
      const leaves = flatten(record);
      expect([...leaves.keys()]).toEqual([
        "id",
        "__proto__",
        "constructor",
        "token_info.prototype",
        "token_info.symbol",
      ]);
      expect(JSON.stringify(leaves.get("__proto__"))).toBe('{"polluted":"yes"}');
      expect(polluted().polluted).toBeUndefined();
    }
  });
});
