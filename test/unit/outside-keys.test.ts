import { describe, expect, it } from "vitest";
import { completePaths } from "../../src/commands/complete/run.js";
import marketCommand from "../../src/commands/market/index.js";
import { toolSpecOf } from "../../src/commands/mcp/catalog.js";
import { rawOptions } from "../../src/commands/mcp/tools.js";
import { OUTPUT_FLAGS } from "../../src/flags/output.js";
import { Instruments } from "../../src/sandbox/instruments.js";

// A key that came from outside (an agent's argument, a client's request path, the shell's command
// word) indexes a table only as one of its own keys: `constructor`, `toString` and `__proto__` are
// names like any other, never what JavaScript's objects answer to them.

describe("keys an agent or a client sends", () => {
  it("rawOptions takes only the flag table's own keys (never constructor, toString or __proto__)", () => {
    const market = toolSpecOf(marketCommand)!;
    const args = JSON.parse('{"constructor":"x","toString":"y","__proto__":{"json":true},"wide":true}');
    const raw = rawOptions(market, args, OUTPUT_FLAGS);
    expect(Object.keys(raw)).toEqual([]);
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
    expect(raw.json).toBeUndefined();
  });

  it("the sandbox counts a request path named like an object's internals as any other", () => {
    const instruments = new Instruments({}, { accepted: 0, refused: 0 });
    const res = {} as Parameters<Instruments["answersFirst"]>[1];
    // A URL of a scheme with opaque paths: a path without its leading slash.
    for (const path of ["x:__proto__", "x:constructor", "x:constructor", "x:toString"])
      expect(instruments.answersFirst(new URL(path), res)).toBe(false);
    expect(JSON.stringify(instruments.stats.byPath)).toBe('{"__proto__":1,"constructor":2,"toString":1}');
  });

  it("completion offers the paths of a command of the table only, never of `constructor`", () => {
    for (const command of ["constructor", "__proto__", "toString"])
      expect(completePaths("x:", command), command).toEqual([]);
    expect(completePaths("token_info.symbol:d", "market")).toEqual(["token_info.symbol:desc"]);
  });
});
