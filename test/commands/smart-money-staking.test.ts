import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/output/width.js";
import { useSandbox, useServers } from "../e2e/fixtures.js";
import { run } from "./harness.js";

// smart-money and staking, the Base-only commands, in-process through run() against the sandbox.

const sandbox = useSandbox();
const dir = useServers().folder();
const at = (args: string[], env: Record<string, string> = {}) =>
  run(["--base-url", sandbox.url, "--api-key", sandbox.apiKey, ...args], dir, {
    env: { NO_COLOR: "1", ...env },
  });

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

/** SYMBOL, IN, OUT and NET for three windows, then (--wide) six token amounts and the address. */
const HEADERS = [
  "SYMBOL",
  ...["24H", "7D", "30D"].flatMap((w) => [`IN ${w}`, `OUT ${w}`, `NET ${w}`]),
  ...["24H", "7D", "30D"].flatMap((w) => [`TOK IN ${w}`, `TOK OUT ${w}`]),
  "ADDRESS",
];

describe("smart-money --wide on a terminal", () => {
  const wide = (columns: number) =>
    at(["smart-money", ...TICKERS, "--wide"], { TOKENINTEL_FORCE_TTY: "1", COLUMNS: String(columns) });

  it("never cuts the symbol, keeps as many extra columns as fit, and says how many were left out", async () => {
    const kept: number[] = [];
    for (const columns of [100, 120, 160]) {
      const r = await wide(columns);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(lines.slice(1).map((line) => line.split(" ")[0])).toEqual(["VIRTUAL", "AIXBT", "GAME"]);
      const hidden = Number(/\((\d+) more columns? did not fit/.exec(r.stderr)?.[1] ?? 0);
      // The columns in their order, the ones left out from the end.
      const shown = HEADERS.slice(0, HEADERS.length - hidden).join(" ");
      expect(lines[0]!.trim().split(/\s+/).join(" "), r.stderr).toBe(shown);
      kept.push(HEADERS.length - hidden - 10);
    }
    // At 100 the ten columns fill the line; wider, the extra columns come back one by one.
    expect(kept[0]).toBe(0);
    expect(kept[1]).toBeGreaterThan(0);
    expect(kept[2]).toBeGreaterThan(kept[1]!);
  });
});

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
