import { describe, expect, it } from "vitest";
import { readCommandLine } from "../../src/entry/command-line.js";
import { v8Flags } from "../../src/entry/shim.js";

// The one reading of the command line before anything loads (src/entry/command-line.ts): what the
// shim starts, and which command the program loads. The help pages' cases are in help-render.test.ts.

const TAKES_VALUE = new Set(["--timeout", "--base-url", "-o"]);
const words = (args: string[]) => readCommandLine(args, TAKES_VALUE).words;

describe("the command line's words", () => {
  it("skip the global options and the values of those that take one", () => {
    expect(words(["--timeout", "5s", "--verbose", "market", "-c", "base"])).toEqual([
      { word: "market", at: 3 },
      { word: "base", at: 5 },
    ]);
  });

  it("take an option's value written with = as part of the option", () => {
    expect(words(["--timeout=5s", "config", "set", "chain", "base"]).map((w) => w.word)).toEqual([
      "config",
      "set",
      "chain",
      "base",
    ]);
  });

  it("after --, the next argument alone", () => {
    expect(words(["--verbose", "--", "--odd", "market"])).toEqual([{ word: "--odd", at: 2 }]);
    expect(words(["--"])).toEqual([]);
  });

  it("without the table of options that take a value, a value is a word", () => {
    expect(readCommandLine(["--timeout", "5s", "market"]).words[0]).toEqual({ word: "5s", at: 1 });
  });
});

describe("what the shim answers", () => {
  const cases: [string[], "plain" | "verbose" | undefined][] = [
    [["--version"], "plain"],
    [["-V"], "plain"],
    [["--version", "--verbose"], "verbose"],
    [["-v", "--version"], "verbose"],
    [["-V", "-v"], "verbose"],
    [["--version", "market"], undefined],
    [["--version", "--verbose", "market"], undefined],
    [["--verbose"], undefined],
    [[], undefined],
  ];
  for (const [args, version] of cases) {
    it(`${JSON.stringify(args)}: version ${version ?? "not asked"}`, () => {
      expect(readCommandLine(args).version).toBe(version);
    });
  }

  it("__complete first is shell completion, anywhere else a word", () => {
    expect(readCommandLine(["__complete", "token", "pe"]).complete).toBe(true);
    expect(readCommandLine(["market", "__complete"]).complete).toBe(false);
  });
});

describe("the V8 flags the shim sets before the program runs", () => {
  it("a line asks for NDJSON with --ndjson, -o ndjson, --output ndjson or --output=ndjson", () => {
    for (const args of [["--ndjson"], ["-o", "ndjson"], ["--output", "ndjson"], ["--output=ndjson"]])
      expect(readCommandLine(["market", "-c", "base", ...args]).ndjson, args.join(" ")).toBe(true);
    for (const args of [["--json"], ["-o", "json"], ["--tickers", "ndjson"], ["-o"]])
      expect(readCommandLine(["market", ...args]).ndjson, args.join(" ")).toBe(false);
  });

  it("Liftoff only on Node 20; a stream's young generation held at its size, Maglev off from 24", () => {
    expect(v8Flags(20, false)).toBe("--liftoff-only");
    expect(v8Flags(22, false)).toBe("");
    expect(v8Flags(20, true)).toBe("--liftoff-only --semi-space-growth-factor=1");
    expect(v8Flags(22, true)).toBe("--semi-space-growth-factor=1");
    expect(v8Flags(24, true)).toBe("--semi-space-growth-factor=1 --no-maglev");
    expect(v8Flags(26, false)).toBe("");
  });
});
