import { describe, expect, it } from "vitest";
import { useDemoSandbox } from "../sandbox-runs.js";

// staking's two kinds of records (a token's, an activity's), in-process through run() against the
// sandbox: a --where, --sort or --fields path of the other kind points to the flag that reads it.

const { sandbox, at } = useDemoSandbox({ NO_COLOR: "1" });

const TICKERS = ["--tickers", "VIRTUAL,AIXBT,GAME"];

describe("staking's two kinds of records", () => {
  it("a --where or --sort on an activity's field, without --activities, points to it, before any request", async () => {
    for (const flag of [
      ["--where", "user_type=dev"],
      ["--sort", "action"],
    ]) {
      const before = sandbox.stats.requests;
      const r = await at(["staking", ...TICKERS, ...flag]);
      expect(r.code).toBe(2);
      const path = flag[1]!.split("=")[0];
      expect(r.stderr.trim()).toBe(
        `tokenintel: ${flag[0]}: "${path}" is an activity's field: add --activities`,
      );
      expect(sandbox.stats.requests).toBe(before);
    }
    // With --activities the same filter is read, and keeps only the developers' moves.
    const r = await at(["staking", ...TICKERS, "--activities", "--where", "user_type=dev", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ user_type: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.user_type))).toEqual(new Set(["dev"]));
  });

  it("a token's field with --activities points back; a column of the other's names it at the end", async () => {
    const r = await at(["staking", ...TICKERS, "--activities", "--where", "staking_details.tvl>1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--where: "staking_details.tvl" is a token's field, not an activity's: leave out --activities`,
    );
    const fields = await at(["staking", ...TICKERS, "--fields", "user_type", "--json"]);
    expect(fields.code, fields.stderr).toBe(0);
    expect(fields.stderr).toContain("(it is an activity's field: add --activities)");
  });
});
