import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// Tables built with --fields read like the views (their headers, ✓/✗), and a
// terminal whose locale is not UTF-8 gets ASCII symbols, tables and charts still lined up.

const sandbox = useSandbox();
const dir = useServers().folder();
const TTY = { TOKENINTEL_FORCE_TTY: "1", COLUMNS: "120", NO_COLOR: "1" };
const at = (args: string[], env: Record<string, string> = {}) =>
  run(["--base-url", sandbox.url, "--api-key", sandbox.apiKey, ...args], dir, { env: { ...TTY, ...env } });

const FIELDS =
  "token_info.symbol,dev_wallet_insights.dev_sold,token_holder_insights.total_holder_count,token_info.description";

describe("--fields tables", () => {
  it("take the views' headers and symbols; another field is headed by its name", async () => {
    const r = await at(["market", "-c", "base", "--limit", "20", "--fields", FIELDS, "--output", "table"]);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split("\n");
    expect(header!.trim().split(/\s{2,}/)).toEqual(["SYMBOL", "SOLD", "HOLDERS", "DESCRIPTION"]);
    expect(rows.join("\n")).not.toMatch(/\b(yes|no)\b/);
    // Each SOLD cell is the record's dev_sold: ✓ for true, ✗ for false, empty when it has none.
    const json = await at(["market", "-c", "base", "--limit", "20", "--fields", FIELDS, "--json"]);
    const sold = (JSON.parse(json.stdout) as Array<{ dev_wallet_insights?: { dev_sold?: boolean } }>).map(
      (x) => x.dev_wallet_insights?.dev_sold,
    );
    expect(sold).toContain(true);
    expect(sold).toContain(false);
    expect(rows.map((row) => /[✓✗]/.exec(row)?.[0])).toEqual(
      sold.map((v) => (v === undefined ? undefined : v ? "✓" : "✗")),
    );
  });
});

describe("a terminal whose locale is not UTF-8", () => {
  const commands: Array<[string, string[]]> = [
    ["market table", ["market", "-c", "base", "--limit", "8", "--fields", FIELDS]],
    ["market view", ["market", "-c", "base", "--limit", "8", "--wide"]],
    ["history chart", ["history", "-c", "base", "--tickers", "<first>", "--since", "30d"]],
  ];
  for (let [name, args] of commands) {
    it(`${name}: ASCII only under LANG=C, the same line widths as under UTF-8`, async () => {
      const first = await at(["market", "-c", "base", "--limit", "1", "--json"]);
      const symbol = (JSON.parse(first.stdout) as Array<{ token_info: { symbol: string } }>)[0]!.token_info
        .symbol;
      args = args.map((a) => (a === "<first>" ? symbol : a));
      const ascii = await at(args, { LANG: "C" });
      const utf8 = await at(args, { LANG: "en_US.UTF-8" });
      expect(ascii.code, ascii.stderr).toBe(utf8.code);
      expect(ascii.stdout).toMatch(/^[\x00-\x7f]*$/);
      expect(ascii.stderr).toMatch(/^[\x00-\x7f]*$/);
      expect(utf8.stdout).toMatch(/[^\x00-\x7f]/);
      const widths = (text: string) => text.split("\n").map((l) => [...l].length);
      if (!/₀|₁|₂|₃|₄|₅|₆|₇|₈|₉/.test(utf8.stdout)) expect(widths(ascii.stdout)).toEqual(widths(utf8.stdout));
    });
  }

  it("writes a tiny price's zeros in full, never as subscript digits read as digits", async () => {
    const r = await at(
      ["market", "-c", "base", "--limit", "100", "--fields", "token_info.symbol,token_metrics.usd_price"],
      {
        LANG: "C",
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ 0\.0000\d+/);
  });
});
