import { describe, expect, it } from "vitest";
import { useDemoSandbox } from "../sandbox-runs.js";

// The chain of a command whose endpoint serves Base alone (smart-money, staking), in-process through
// run() against the sandbox: base in any case is taken, another chain refused before any request.

const { sandbox, at } = useDemoSandbox({ NO_COLOR: "1" });

const TICKERS = ["--tickers", "VIRTUAL,AIXBT,GAME"];

describe("-c/--chain on a Base-only command", () => {
  it("takes base (any case), as the other data commands' habit has it", async () => {
    for (const command of ["smart-money", "staking"])
      for (const chain of [
        ["-c", "base"],
        ["--chain", "BASE"],
      ]) {
        const r = await at([command, ...chain, ...TICKERS, "--json"]);
        expect(r.code, `${command} ${chain.join(" ")}: ${r.stderr}`).toBe(0);
        expect(JSON.parse(r.stdout)).toHaveLength(3);
      }
  });

  it("refuses solana (exit 2) naming Base as the only chain, before any request", async () => {
    for (const command of ["smart-money", "staking"]) {
      const before = sandbox.stats.requests;
      const r = await at([command, "-c", "solana", ...TICKERS]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(
        'tokenintel: --chain: expected base (Base is the only chain this endpoint serves), got "solana"',
      );
      expect(sandbox.stats.requests).toBe(before);
    }
  });
});
