import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../../e2e/helpers.js";
import { run } from "../harness.js";

// Usage errors a new user meets: one line each, exit 2, saying what to
// type instead.

const dir = tempDir();
afterAll(() => dir.remove());

const cases: Array<[string[], string]> = [
  [
    ["-v"],
    "no command given (-v is --verbose; the version is -V or --version); see 'tokenintel --help' for the commands",
  ],
  [["--color", "never"], "no command given; see 'tokenintel --help' for the commands"],
  [["--ver"], "unknown option '--ver' (did you mean --version or --verbose?)"],
  [
    ["payments", "--pay"],
    "unknown option '--pay': 'payments' does not take --pay; market, directory, agents, ta, trending, smart-money, staking, history, perp, check, ask, api, mcp do",
  ],
  [
    ["-c", "base", "market"],
    "unknown option '-c': -c is an option of 'market', so it goes after it (tokenintel market -c …)",
  ],
  [["market", "--vew", "x"], "unknown option '--vew' (did you mean --view?)"],
  [["nope"], "unknown command 'nope' (see 'tokenintel --help')"],
  [
    ["market", "-c", "base", "--tickers", "AERO,", "DEGEN"],
    "too many arguments for 'market': a list is comma-separated without spaces (AERO,DEGEN), or quote it",
  ],
  [["market", "-c", "base", "--limit", "abc"], '--limit: expected a whole number of 1 or more, got "abc"'],
  [["--timeout", "0", "market", "-c", "base"], '--timeout: expected a length above 0, got "0"'],
  [
    ["market", "-c", "base", "--tickers", "@/nope"],
    "--tickers: cannot read @/nope: no such file or directory (ENOENT)",
  ],
  [
    ["market", "-c", "base", "--fields", "token_info.symbl"],
    '--fields: unknown field "token_info.symbl" for market (did you mean token_info.symbol?)',
  ],
];

describe("usage errors", () => {
  for (const [args, line] of cases) {
    it(`tokenintel ${args.join(" ")}`, async () => {
      const r = await run(args, dir.path);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`tokenintel: ${line}\n`);
    });
  }
});

describe("flags that would be ignored, and empty input", () => {
  it("directory --sync refuses what it would not apply; ask without a question says how to ask", async () => {
    const sync = await run(["directory", "--sandbox", "--sync", "--where", "symbol~a"], dir.path);
    expect(sync.code).toBe(2);
    expect(sync.stderr).toBe(
      "tokenintel: --sync stores the whole directory in the token index; it cannot be combined with --where\n",
    );
    const ask = await run(["ask", "--sandbox", "  "], dir.path);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toBe(
      "tokenintel: ask needs a question: tokenintel ask 'how is $AERO doing?' (or pipe it in with 'ask -')\n",
    );
  });
});
