import { beforeAll, describe, expect, it } from "vitest";
import { useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// --where, run in-process through run(): what the program keeps equals a jq-style filter of the full
// output, computed here from that output with a comparator of the test's own (exact, through BigInt).

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_where`;
const dir = { path: useServers().folder() };
const sandbox = useSandbox({ apiKey: KEY });
type Rec = Record<string, unknown>;
let fullMarket: Rec[];

const cli = (args: string[]) =>
  run(["--base-url", sandbox.url, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY } });

beforeAll(async () => {
  const r = await cli(["market", "-c", "base", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  fullMarket = JSON.parse(r.stdout) as Rec[];
  expect(fullMarket.length).toBeGreaterThan(300);
});

function get(record: unknown, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split(".")) v = v && typeof v === "object" ? (v as Rec)[part] : undefined;
  return v;
}

/** A decimal string as an integer scaled by 10^30, or undefined. */
function exact(v: unknown): bigint | undefined {
  const text = typeof v === "number" ? String(v) : v;
  if (typeof text !== "string") return undefined;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const n = BigInt(m[2]! + (m[3] ?? "").padEnd(30, "0").slice(0, 30));
  return m[1] ? -n : n;
}

/** `select(.path > value)` and friends, as jq would be told to by someone who knows the data. */
const jq = {
  num: (path: string, op: ">" | ">=" | "<" | "<=", value: string) => (r: unknown) => {
    const a = exact(get(r, path));
    const b = exact(value)!;
    if (a === undefined) return false;
    return op === ">" ? a > b : op === ">=" ? a >= b : op === "<" ? a < b : a <= b;
  },
  eq: (path: string, value: string) => (r: unknown) => String(get(r, path)) === value,
  contains: (path: string, value: string) => (r: unknown) =>
    String(get(r, path) ?? "\u0000")
      .toLowerCase()
      .includes(value.toLowerCase()),
  isNull: (path: string) => (r: unknown) => get(r, path) === undefined || get(r, path) === null,
};

const ids = (records: Rec[]) => records.map((r) => r.id);

describe("--where", () => {
  it("two conditions (AND) keep exactly what a jq select of the full output keeps", async () => {
    const r = await cli([
      "market",
      "-c",
      "base",
      "--json",
      "--where",
      "token_metrics.price_change_percentage_24h>5",
      "--where",
      "token_info.ecosystem=virtuals",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const expected = fullMarket.filter(
      (x) =>
        jq.num("token_metrics.price_change_percentage_24h", ">", "5")(x) &&
        jq.eq("token_info.ecosystem", "virtuals")(x),
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.length).toBeLessThan(fullMarket.length);
    expect(ids(JSON.parse(r.stdout))).toEqual(ids(expected));
  });

  it("<= on negative numbers, ~ on names, and null for a missing section or a null value", async () => {
    const cases: Array<[string[], (r: unknown) => boolean]> = [
      [
        ["token_holder_insights.holder_count_change_percentage_24h<=-5"],
        jq.num("token_holder_insights.holder_count_change_percentage_24h", "<=", "-5"),
      ],
      [["token_info.name~dao"], jq.contains("token_info.name", "dao")],
      [
        ["dev_wallet_insights.bundle_wallet_supply_percentage=null"],
        jq.isNull("dev_wallet_insights.bundle_wallet_supply_percentage"),
      ],
      [["dev_wallet_insights.fresh_wallet=true"], jq.eq("dev_wallet_insights.fresh_wallet", "true")],
    ];
    for (const [where, keep] of cases) {
      const r = await cli(["market", "-c", "base", "--ndjson", ...where.flatMap((w) => ["--where", w])]);
      expect(r.code, r.stderr).toBe(0);
      const got = r.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Rec);
      const expected = fullMarket.filter(keep);
      expect(expected.length, where[0]).toBeGreaterThan(0);
      expect(ids(got), where[0]).toEqual(ids(expected));
    }
  });

  it("comes before --limit: pages are fetched until enough records match", async () => {
    const keep = jq.num("token_holder_insights.top_10_holder_percentage", ">=", "60");
    const expected = fullMarket.filter(keep).slice(0, 40);
    const before = sandbox.stats.byPath["/v1/crypto-market/"] ?? 0;
    const r = await cli([
      "market",
      "-c",
      "base",
      "--json",
      "--limit",
      "40",
      "--where",
      "token_holder_insights.top_10_holder_percentage>=60",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(JSON.parse(r.stdout))).toEqual(ids(expected));
    // 40 matches need more than the two pages 40 records would.
    expect((sandbox.stats.byPath["/v1/crypto-market/"] ?? 0) - before).toBeGreaterThan(2);
  });

  it("comes before --sort, and reaches CSV too", async () => {
    const r = await cli([
      "market",
      "-c",
      "base",
      "-o",
      "csv",
      "--fields",
      "id,token_metrics.mcap",
      "--sort",
      "token_metrics.mcap:desc",
      "--where",
      "token_metrics.mcap<1000000",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const expected = fullMarket.filter(jq.num("token_metrics.mcap", "<", "1000000")).sort((a, b) => {
      const x = exact(get(a, "token_metrics.mcap"))!;
      const y = exact(get(b, "token_metrics.mcap"))!;
      return x === y ? 0 : x > y ? -1 : 1;
    });
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toBe("id,token_metrics.mcap");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(ids(expected));
  });

  it("works on the directory's top-level fields", async () => {
    const full = JSON.parse((await cli(["directory", "-c", "base", "--json"])).stdout) as Rec[];
    const r = await cli([
      "directory",
      "-c",
      "base",
      "--json",
      "--where",
      "symbol~ai",
      "--where",
      "ecosystem!=virtuals",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const expected = full.filter((x) => jq.contains("symbol", "ai")(x) && !jq.eq("ecosystem", "virtuals")(x));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(JSON.parse(r.stdout))).toEqual(ids(expected));
  });

  it("an unknown field gets --fields' suggestion; a condition without an operator is a usage error", async () => {
    const before = sandbox.stats.requests;
    const r = await cli(["market", "-c", "base", "--where", "usd_price>1"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'tokenintel: --where: unknown field "usd_price" for market (did you mean token_metrics.usd_price?)',
    );
    const bad = await cli(["market", "-c", "base", "--where", "token_metrics.usd_price"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^tokenintel: --where: expected <field><op><value>/);
    expect(sandbox.stats.requests).toBe(before);
  });

  it("reads the number forms people type (.5, 100k, $100000, 5_000, 1e3) exactly as the plain decimal", async () => {
    const price = "token_metrics.usd_price";
    const mcap = "token_metrics.mcap";
    const same = [
      [`${price}>.5`, jq.num(price, ">", "0.5")],
      [`${mcap}<100k`, jq.num(mcap, "<", "100000")],
      [`${mcap}<$100000`, jq.num(mcap, "<", "100000")],
      [`${mcap}>5_000`, jq.num(mcap, ">", "5000")],
      [`${mcap}>=2.5e6`, jq.num(mcap, ">=", "2500000")],
      [`${mcap}>1.5M`, jq.num(mcap, ">", "1500000")],
    ] as const;
    for (const [where, keep] of same) {
      const r = await cli(["market", "-c", "base", "--json", "--where", where]);
      expect(r.code, `${where}: ${r.stderr}`).toBe(0);
      const expected = fullMarket.filter(keep);
      expect(expected.length, where).toBeGreaterThan(0);
      expect(ids(JSON.parse(r.stdout)), where).toEqual(ids(expected));
    }
  });

  it("booleans compare in any case; a typo in a value or an operator is exit 2 naming it, before any request", async () => {
    const fresh = "dev_wallet_insights.fresh_wallet";
    const upper = await cli(["market", "-c", "base", "--json", "--where", `${fresh}=TRUE`]);
    const expected = fullMarket.filter((r) => get(r, fresh) === true);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(JSON.parse(upper.stdout))).toEqual(ids(expected));
    const before = sandbox.stats.requests;
    const mcap = "token_metrics.mcap";
    for (const [where, message] of [
      [`${mcap}<1,000`, `"1,000" is not a number (a comma is not read: write 1000 or 1_000)`],
      [`${mcap}>0x10`, `"0x10" is not a number (hexadecimal is not read)`],
      [`${mcap}>abc`, `"abc" is not a number`],
      [`${mcap}=abc`, `"abc" is not a number`],
      [`${mcap}>>5`, `unknown operator ">>"`],
      [`${mcap}=<5`, `unknown operator "=<"`],
      [`${mcap}==5`, `unknown operator "=="`],
      [`${mcap}<>5`, `unknown operator "<>"`],
      [`${fresh}=ture`, `${fresh} is true or false, not "ture"`],
      [`${fresh}>true`, `${fresh} is true or false: compare it with = or !=`],
    ] as const) {
      const r = await cli(["market", "-c", "base", "--json", "--where", where]);
      expect(r.code, where).toBe(2);
      expect(r.stdout, where).toBe("");
      expect(r.stderr, where).toContain(message);
      expect(r.stderr.trim().split("\n"), where).toHaveLength(1);
    }
    expect(sandbox.stats.requests).toBe(before);
  });
});
