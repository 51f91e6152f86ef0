import { describe, expect, it } from "vitest";
import { run } from "../harness.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// Settings from TOKENINTEL_* variables, in-process through run() against the sandbox: a bad value
// names the variable (not the flag) before any request, the variables are read, and a flag wins
// over a bad variable.

const { KEY, servers, sandbox } = useKeyedSandbox("variables");
const freshDir = () => servers.folder();
const WALLET = `0x${"5a".repeat(32)}`;

describe("a bad value in a TOKENINTEL_* variable names the variable, not the flag", () => {
  const market = () => ["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"];
  const pay = () => [
    "--base-url",
    sandbox.url,
    "directory",
    "-c",
    "base",
    "--pay",
    "--dry-run",
    "--limit",
    "1",
  ];
  const cases: Array<[string, string, () => string[]]> = [
    ["TOKENINTEL_CHAIN", "eth", () => ["--base-url", sandbox.url, "market", "--tickers", "VIRTUAL"]],
    ["TOKENINTEL_BASE_URL", "not a url", () => ["market", "-c", "base", "--limit", "1"]],
    ["TOKENINTEL_OUTPUT", "xml", market],
    ["TOKENINTEL_TIMEOUT", "soon", market],
    ["TOKENINTEL_RETRIES", "many", market],
    ["TOKENINTEL_CACHE", "forever", market],
    ["TOKENINTEL_PAY_NETWORK", "ethereum", pay],
    ["TOKENINTEL_WALLET_KEY", "not-a-key", pay],
  ];
  for (const [variable, value, args] of cases) {
    it(`${variable}=${value}`, async () => {
      const before = sandbox.stats.requests;
      const r = await run(args(), freshDir(), {
        env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_WALLET_KEY: WALLET, [variable]: value },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^tokenintel: ${variable}\\b`));
      expect(r.stderr).not.toMatch(/--[a-z-]+:/);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(sandbox.stats.requests).toBe(before);
    });
  }

  it("the new variables work, and a flag wins over a bad variable", async () => {
    const env = {
      TOKENINTEL_API_KEY: KEY,
      TOKENINTEL_OUTPUT: "csv",
      TOKENINTEL_TIMEOUT: "5",
      TOKENINTEL_RETRIES: "0",
    };
    const csv = await run(["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"], freshDir(), {
      env,
    });
    expect(csv.code).toBe(0);
    expect(csv.stdout.split("\n")[0]).toMatch(/^[a-z_.]+(,[a-z_.0-9]+)+$/);
    const flagWins = await run(
      ["--base-url", sandbox.url, "--timeout", "5s", "market", "-c", "base", "--limit", "1", "--json"],
      freshDir(),
      { env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_TIMEOUT: "soon" } },
    );
    expect(flagWins.code).toBe(0);
  });
});
