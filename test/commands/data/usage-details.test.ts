import { describe, expect, it } from "vitest";
import { runCommand, useStubServer } from "../harness.js";

// Usage errors of numbers and pages: a whole number too large for any flag says "too large"
// (not "expected a whole number"), and --page past 1 with a list says the list has one page. Each
// is exit 2, one line, before any request.

const server = useStubServer();

const KEY = { TOKENINTEL_API_KEY: "sk_test_key_123456" };
const HUGE = "99999999999999999999";

async function usageError(args: string[], message: RegExp): Promise<void> {
  const r = await runCommand(args, { server, env: KEY });
  expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(/^tokenintel: /);
  expect(r.clients).toBe(0);
}

describe("a whole number too large for its flag says so", () => {
  const cases: Array<[string, string[]]> = [
    ["--limit", ["market", "-c", "base", "--limit", HUGE]],
    ["--page", ["market", "-c", "base", "--page", HUGE]],
    ["--max-pages", ["directory", "-c", "base", "--max-pages", HUGE]],
    ["--retries", ["--retries", HUGE, "market", "-c", "base"]],
    ["--concurrency", ["--concurrency", HUGE, "market", "-c", "base"]],
    ["--limit", ["api", "/v1/crypto-market/", "--paginate", "--limit", HUGE]],
    ["--count", ["market", "-c", "base", "--watch", "--count", HUGE]],
    ["--seed", ["sandbox", "--seed", HUGE]],
    ["--port", ["sandbox", "--port", HUGE]],
  ];
  for (const [flag, args] of cases) {
    it(`${args[0]}: ${flag} ${HUGE}`, () => usageError(args, new RegExp(`^tokenintel: ${flag}: too large`)));
  }
  it("one past the largest safe whole number is too large; 0 is below the least", async () => {
    const r = await runCommand(["market", "-c", "base", "--limit", "9007199254740992"], { server, env: KEY });
    // The largest it takes, named: a user sees how far it goes.
    expect(r.stderr.trim()).toBe(
      'tokenintel: --limit: too large (at most 9007199254740991), got "9007199254740992"',
    );
    const ok = await runCommand(["market", "-c", "base", "--limit", "0"], { server, env: KEY });
    expect(ok.stderr).toMatch(/--limit: expected a whole number of 1 or more/);
  });
  it("a flag with its own ceiling names it", async () => {
    await usageError(
      ["--concurrency", "33", "market", "-c", "base"],
      /--concurrency: too large \(at most 32\)/,
    );
    await usageError(["sandbox", "--port", "65536"], /--port: too large \(at most 65535\)/);
  });
  it("a duration too long says so, and why", async () => {
    await usageError(
      ["--timeout", HUGE, "market", "-c", "base"],
      /^tokenintel: --timeout: too long: at most 24h \(a request or a refresh is not waited for longer than a day\)/,
    );
    await usageError(["--timeout", "25h", "market", "-c", "base"], /^tokenintel: --timeout: too long/);
    await usageError(["market", "-c", "base", "--watch", HUGE], /^tokenintel: --watch: too long/);
    // --watch's value may be left out; a bad one still gets the duration's message, not zod's "Invalid input".
    await usageError(
      ["market", "-c", "base", "--watch", "soon"],
      /^tokenintel: --watch: expected a span such as 30s, 10m or 2h \(m is minutes\), got "soon"/,
    );
  });
  it("a setting too large names the setting", () =>
    usageError(["config", "set", "retries", HUGE], /^tokenintel: retries: too large \(at most \d+\)/));
});

describe("--page past 1 with a list: the list is answered in one page", () => {
  const cases: Array<[string, string[]]> = [
    ["tickers", ["market", "-c", "base", "--tickers", "VIRTUAL,AERO", "--page", "2"]],
    ["addresses", ["directory", "-c", "base", "--addresses", "0xabc", "--page", "2"]],
    ["ids", ["ta", "-c", "base", "--ids", "1,2", "--page", "3"]],
    ["tickers", ["agents", "-c", "base", "--tickers", "AIXBT", "--page", "2"]],
  ];
  for (const [kind, args] of cases) {
    it(`${args[0]} --${kind} --page`, () =>
      usageError(args, new RegExp(`^tokenintel: --page \\d: a list of ${kind} is answered in one page`)));
  }
});
