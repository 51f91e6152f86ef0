import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { type HostileServer, sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// `tokenintel check`, run in-process through run(): a stub market endpoint serves crafted records, each
// sitting at (or just short of) one threshold, and the program's levels and exit codes are checked.

type Fields = {
  dev?: Record<string, unknown>;
  holders?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
  top?: Record<string, unknown>;
};

/** A token with nothing wrong, changed by `fields`. */
function token(symbol: string, index: number, fields: Fields = {}): Record<string, unknown> {
  const id = `id${index.toString().padStart(4, "0")}`;
  return {
    id,
    token_info: {
      id,
      symbol,
      name: `${symbol} token`,
      ca: `0x${index.toString(16).padStart(40, "0")}`,
      chain: "base",
      ecosystem: "base",
    },
    token_holder_insights: {
      total_holder_count: 5000,
      holder_count_change_percentage_24h: "1.00",
      top_10_holder_percentage: "20.00",
      ...fields.holders,
    },
    dev_wallet_insights: {
      wallet_address: "0xdead",
      fresh_wallet: false,
      dev_sold: false,
      dev_sold_percentage: "0.00",
      bundle_wallet_count: 0,
      bundle_wallet_supply_percentage: "0.00",
      ...fields.dev,
    },
    token_metrics: { usd_price: "1.00", mcap: "100.00", total_liquidity: "50.00", ...fields.metrics },
    ...fields.top,
  };
}

/** Symbol → [record, the level check must give]. */
const CASES: Array<[string, Fields, "low" | "medium" | "high"]> = [
  ["CLEAN", {}, "low"],
  ["SOLD0", { dev: { dev_sold: true, dev_sold_percentage: "0.00" } }, "medium"],
  ["SOLD2499", { dev: { dev_sold: true, dev_sold_percentage: "24.99" } }, "medium"],
  ["SOLD25", { dev: { dev_sold: true, dev_sold_percentage: "25.00" } }, "high"],
  ["BUND499", { dev: { bundle_wallet_supply_percentage: "4.99" } }, "low"],
  ["BUND5", { dev: { bundle_wallet_supply_percentage: "5.00" } }, "medium"],
  ["BUND1499", { dev: { bundle_wallet_supply_percentage: "14.99" } }, "medium"],
  ["BUND15", { dev: { bundle_wallet_supply_percentage: "15" } }, "high"],
  ["TOP4999", { holders: { top_10_holder_percentage: "49.99" } }, "low"],
  ["TOP50", { holders: { top_10_holder_percentage: "50.00" } }, "medium"],
  ["TOP80", { holders: { top_10_holder_percentage: "80.00" } }, "high"],
  ["FALL499", { holders: { holder_count_change_percentage_24h: "-4.99" } }, "low"],
  ["FALL5", { holders: { holder_count_change_percentage_24h: "-5.00" } }, "medium"],
  ["FALL20", { holders: { holder_count_change_percentage_24h: "-20.00" } }, "high"],
  ["LIQ5", { metrics: { total_liquidity: "5.00", mcap: "100.00" } }, "low"],
  ["LIQ499", { metrics: { total_liquidity: "4.99", mcap: "100.00" } }, "medium"],
  ["LIQ1", { metrics: { total_liquidity: "1.00", mcap: "100.00" } }, "medium"],
  ["LIQ099", { metrics: { total_liquidity: "0.99", mcap: "100.00" } }, "high"],
  ["FRESH", { dev: { fresh_wallet: true } }, "medium"],
  ["RUGSAFE", { top: { rug_status: "SAFE" } }, "low"],
  ["RUGC", { top: { rug_status: "CAUTION" } }, "medium"],
  ["RUGH", { top: { rug_status: "HIGH_RISK" } }, "high"],
  // Clean market records whose agent record says otherwise (AGENT_STATUS).
  ["AGENTH", {}, "high"],
  ["AGENTC", {}, "medium"],
  ["AGENTNEW", {}, "medium"],
  ["AGENTS", {}, "low"],
  ["AGENTN", {}, "low"],
  // A market record's own field of the join's name counts for nothing: the agents endpoint's word does.
  ["SPOOF", { top: { agents: { rug_status: "SAFE" } } }, "high"],
  // The agents endpoint knows a DUPE at another address: another token, not joined.
  ["DUPE", {}, "low"],
];
/** The tokens the agents endpoint knows, and the rug_status it sends (null: none sent). */
const AGENT_STATUS: Record<string, string | null> = {
  AGENTH: "HIGH_RISK",
  AGENTC: "caution",
  AGENTNEW: "SOMETHING_NEW",
  AGENTS: "SAFE",
  AGENTN: null,
  SPOOF: "HIGH_RISK",
  DUPE: "HIGH_RISK",
};
const RECORDS = CASES.map(([symbol, fields], i) => token(symbol, i + 1, fields));
const bySymbol = new Map(RECORDS.map((r) => [(r.token_info as { symbol: string }).symbol.toLowerCase(), r]));
const byAddress = new Map(RECORDS.map((r) => [(r.token_info as { ca: string }).ca.toLowerCase(), r]));
/** The agent record of a token the agents endpoint knows: the market record's identity, its own status. */
function agentRecord(market: Record<string, unknown>): Record<string, unknown> | undefined {
  const info = market.token_info as { symbol: string; ca: string };
  if (!(info.symbol in AGENT_STATUS)) return undefined;
  const status = AGENT_STATUS[info.symbol];
  const ca = info.symbol === "DUPE" ? `0x${"d".repeat(40)}` : info.ca;
  return { id: market.id, ...(status === null ? {} : { rug_status: status }), agent_info: { ...info, ca } };
}

const servers = useServers();
const dir = { path: servers.folder() };
let server: HostileServer;
beforeAll(async () => {
  server = await servers.stub((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const agents = url.pathname === "/v1/agents";
    if (!agents && url.pathname !== "/v1/crypto-market/") return sendJson(res, { success: false }, 404);
    const list = (name: string) =>
      url.searchParams.get(`${agents ? "agent" : "token"}_${name}`)?.split(",") ?? [];
    const found = [
      ...list("tickers").map((t) => bySymbol.get(t.toLowerCase())),
      ...list("addresses").map((a) => byAddress.get(a.toLowerCase())),
    ].filter((r): r is Record<string, unknown> => r !== undefined);
    const data = agents ? found.flatMap((r) => agentRecord(r) ?? []) : found;
    sendJson(res, {
      success: true,
      data,
      meta: { pagination: { page: 1, pageSize: 30, pageCount: 1, total: data.length } },
    });
  });
});

const check = (args: string[], env: Record<string, string> = {}) =>
  run(["--base-url", server.url, "check", "-c", "base", ...args], dir.path, {
    env: { TOKENINTEL_API_KEY: "sk_test_check", ...env },
  });

interface Row {
  symbol: string;
  level: string;
  reasons: Array<{ level: string; rule: string; field: string; value: string; threshold: string }>;
}

describe("check", () => {
  it("gives each token the level of its threshold, at and just short of each boundary", async () => {
    const r = await check(["--tickers", CASES.map(([s]) => s).join(","), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((x) => [x.symbol, x.level])).toEqual(CASES.map(([s, , level]) => [s, level]));
    for (const row of rows) expect(row.reasons.length > 0).toBe(row.level !== "low");
  });

  it("each reason cites its field and the value sent", async () => {
    const r = await check(["--tickers", "SOLD25,LIQ099,RUGC,FRESH", "--json"]);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((x) => x.reasons)).toEqual([
      [
        {
          level: "high",
          rule: "dev sold",
          field: "dev_wallet_insights.dev_sold_percentage",
          value: "25.00",
          unit: "%",
          threshold: ">= 25",
        },
      ],
      [
        {
          level: "high",
          rule: "liquidity against market cap",
          field: "token_metrics.total_liquidity/token_metrics.mcap",
          value: "0.99",
          unit: "%",
          threshold: "< 1",
        },
      ],
      [
        {
          level: "medium",
          rule: "rug status",
          field: "rug_status",
          value: "CAUTION",
          unit: null,
          threshold: expect.stringMatching(/^not SAFE/),
        },
      ],
      [
        {
          level: "medium",
          rule: "fresh dev wallet",
          field: "dev_wallet_insights.fresh_wallet",
          value: "true",
          unit: null,
          threshold: "= true",
        },
      ],
    ]);
  });

  it("--fail-on high exits 3 only when a token is high; --fail-on medium from medium", async () => {
    const passes = await check(["--tickers", "CLEAN,BUND1499,TOP50", "--fail-on", "high", "--json"]);
    expect(passes.code, passes.stderr).toBe(0);
    expect(passes.stderr).toBe("");

    const fails = await check(["--tickers", "CLEAN,BUND15", "--fail-on", "high", "--json"]);
    expect(fails.code).toBe(3);
    expect(fails.stderr.trim()).toBe(
      "tokenintel: 1 of the 2 tokens named is at high risk or above (--fail-on high): BUND15",
    );
    // The verdicts are still printed, for the script's log.
    expect((JSON.parse(fails.stdout) as Row[]).map((x) => x.level)).toEqual(["low", "high"]);

    expect((await check(["--tickers", "BUND5", "--fail-on", "medium", "--json"])).code).toBe(3);
    expect((await check(["--tickers", "BUND499,LIQ5", "--fail-on", "medium", "--json"])).code).toBe(0);
    expect((await check(["--tickers", "RUGH", "--fail-on", "medium", "--json"])).code).toBe(3);
  });

  it("a token without data gets no verdict: exit 1, after the others are printed", async () => {
    const r = await check(["--tickers", "CLEAN,NOSUCH", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("tokenintel: no data for 1 of 2 tickers, so no verdict: NOSUCH");
    expect((JSON.parse(r.stdout) as Row[]).map((x) => x.symbol)).toEqual(["CLEAN"]);
    // With --fail-on, the count is of the tokens named, and the one without data is said apart.
    const failing = await check(["--tickers", "BUND15,NOSUCH", "--fail-on", "medium", "--json"]);
    expect(failing.code).toBe(3);
    expect(failing.stderr.trim().split("\n")).toEqual([
      "tokenintel: warning: no data for 1 of 2 tickers, so no verdict: NOSUCH",
      "tokenintel: 1 of the 2 tokens named is at medium risk or above (--fail-on medium): BUND15; no verdict for 1 without data",
    ]);
  });

  it("usage errors exit 2 before any request", async () => {
    const before = server.requests.length;
    const none = await check(["--json"]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(
      "tokenintel: check: name the tokens with --tickers, --addresses or --ids",
    );
    const bad = await check(["--tickers", "CLEAN", "--fail-on", "severe"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^tokenintel: --fail-on: unknown risk level "severe"/);
    expect(server.requests.length).toBe(before);
  });

  it("reads lists with the shared reader: a device or a fifo is refused at once, stdin is bounded", async () => {
    const before = server.requests.length;
    const zero = await check(["--addresses", "@/dev/zero"]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toBe("tokenintel: --addresses: cannot read @/dev/zero: not a file\n");
    const fifo = join(dir.path, "list.fifo");
    execFileSync("mkfifo", [fifo]);
    const started = Date.now();
    const waiting = await check(["--tickers", `@${fifo}`]);
    expect(waiting.code).toBe(2);
    expect(waiting.stderr).toMatch(/--tickers: cannot read @.*list\.fifo: not a file/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const piped = await run(
      ["--base-url", server.url, "check", "-c", "base", "--tickers", "-", "--json"],
      dir.path,
      { input: "CLEAN\n$TOP80\n", env: { TOKENINTEL_API_KEY: "sk_test_check" } },
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect((JSON.parse(piped.stdout) as Row[]).map((x) => x.symbol)).toEqual(["CLEAN", "TOP80"]);
    // One request to the market and one to the agents for up to 30 tokens.
    expect(server.requests.length).toBe(before + 2);
  });

  it("addresses, lists from a file, and every output format", async () => {
    const file = join(dir.path, "tokens.txt");
    const ca = (symbol: string) => (bySymbol.get(symbol.toLowerCase())!.token_info as { ca: string }).ca;
    writeFileSync(file, `${ca("TOP80")}\n${ca("CLEAN")}\n`);
    const json = await check(["--addresses", `@${file}`, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as Row[]).map((x) => [x.symbol, x.level])).toEqual([
      ["TOP80", "high"],
      ["CLEAN", "low"],
    ]);

    const ndjson = await check(["--tickers", "TOP80,CLEAN", "--ndjson"]);
    expect(
      ndjson.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as Row).level),
    ).toEqual(["high", "low"]);

    const csv = await check(["--tickers", "TOP80,CLEAN", "-o", "csv"]);
    const lines = csv.stdout.trim().split("\n");
    expect(lines[0]).toBe("symbol,name,address,id,level,reasons,rug_status");
    expect(lines[1]).toContain(
      ',high,"top-10 holding: token_holder_insights.top_10_holder_percentage=80.00% (high at >= 80); note: not known to the agents endpoint: its rug-status rule did not apply",',
    );
    expect(lines[2]).toMatch(
      /,low,note: not known to the agents endpoint: its rug-status rule did not apply,$/,
    );

    const table = await check(["--tickers", "TOP80,CLEAN", "-o", "table"]);
    expect(table.stdout).toMatch(/^SYMBOL\s+ADDRESS\s+LEVEL\s+REASONS$/m);
    expect(table.stdout).toMatch(
      /^TOP80\s+0x0000…000b\s+HIGH\s+top-10 holding: token_holder_insights\.top_10_holder_percentage=80\.00%/m,
    );
    expect(table.stdout).toMatch(
      /^CLEAN\s+0x0000…0001\s+LOW\s+note: not known to the agents endpoint: its rug-status rule did not apply$/m,
    );
  });

  it("reads the agents endpoint's rug_status: named in the reasons, and a note where the rule did not apply, in every format", async () => {
    const tickers = ["AGENTH", "AGENTC", "AGENTN", "CLEAN", "SPOOF", "DUPE"].join(",");
    const json = await check(["--tickers", tickers, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<Row & { rug_status: string | null; notes: string[] }>;
    const bySym = new Map(rows.map((x) => [x.symbol, x]));
    const agentReason = (symbol: string) =>
      bySym.get(symbol)!.reasons.find((x) => x.rule === "rug status (agents)");
    expect(agentReason("AGENTH")).toEqual({
      level: "high",
      rule: "rug status (agents)",
      field: "agents.rug_status",
      value: "HIGH_RISK",
      unit: null,
      threshold: expect.stringContaining("HIGH_RISK"),
    });
    expect(agentReason("AGENTC")).toMatchObject({ level: "medium", value: "caution", threshold: "CAUTION" });
    expect(agentReason("SPOOF")).toMatchObject({ level: "high", value: "HIGH_RISK" });
    expect(rows.map((x) => [x.symbol, x.level, x.rug_status, x.notes])).toEqual([
      ["AGENTH", "high", "HIGH_RISK", []],
      ["AGENTC", "medium", "caution", []],
      [
        "AGENTN",
        "low",
        null,
        ["the agents endpoint sends no rug_status for it: its rug-status rule did not apply"],
      ],
      ["CLEAN", "low", null, ["not known to the agents endpoint: its rug-status rule did not apply"]],
      ["SPOOF", "high", "HIGH_RISK", []],
      ["DUPE", "low", null, ["not known to the agents endpoint: its rug-status rule did not apply"]],
    ]);
    const ndjson = await check(["--tickers", tickers, "--ndjson"]);
    expect(
      ndjson.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(rows);
    const csv = (await check(["--tickers", "AGENTH,CLEAN", "-o", "csv"])).stdout.trim().split("\n");
    expect(csv[1]).toMatch(
      /,high,rug status \(agents\): agents\.rug_status=HIGH_RISK \(high at [^,]*\),HIGH_RISK$/,
    );
    expect(csv[2]).toMatch(
      /,low,note: not known to the agents endpoint: its rug-status rule did not apply,$/,
    );
    const table = await check(["--tickers", "AGENTH,AGENTN", "-o", "table"], { COLUMNS: "250" });
    expect(table.stdout).toMatch(
      /^AGENTH\s+\S+\s+HIGH\s+rug status \(agents\): agents\.rug_status=HIGH_RISK/m,
    );
    expect(table.stdout).toMatch(
      /^AGENTN\s+\S+\s+LOW\s+note: the agents endpoint sends no rug_status for it/m,
    );
  });

  it("asks the agents endpoint for the same list, one more request per 30 tokens", async () => {
    const before = server.requests.length;
    const names = Array.from({ length: 31 }, (_, i) => (i === 30 ? "AGENTH" : `NOPE${i}`));
    const r = await check(["--tickers", names.join(","), "--fail-on", "high"]);
    expect(r.code).toBe(3);
    const sent = server.requests.slice(before).map((x) => new URL(x.url, "http://x"));
    const asked = (path: string, param: string) =>
      sent.filter((u) => u.pathname === path).map((u) => u.searchParams.get(param)!.split(",").length);
    expect(asked("/v1/crypto-market/", "token_tickers").sort()).toEqual([1, 30]);
    expect(asked("/v1/agents", "agent_tickers").sort()).toEqual([1, 30]);
    expect(sent.every((u) => u.searchParams.get("chain") === "base")).toBe(true);
    expect(sent).toHaveLength(4);
  });

  it("check --help shows the thresholds table and the exit codes", async () => {
    const r = await run(["check", "--help"], dir.path);
    expect(r.stdout).toMatch(
      /^bundled supply\s+dev_wallet_insights\.bundle_wallet_supply_percentage\s+>= 5\s+>= 15$/m,
    );
    expect(r.stdout).toMatch(
      /^liquidity against market cap\s+100 × token_metrics\.total_liquidity \/ token_metrics\.mcap\s+< 5\s+< 1$/m,
    );
    expect(r.stdout).toContain("3 with --fail-on when any token reaches that level");
    // What it reads, and what each read costs with --pay.
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toContain("the market (/v1/crypto-market/)");
    expect(help).toContain("the agents (/v1/agents) for the service's own rug status");
    expect(help).toContain("With --pay each request costs 0.005 USDC (market) and 0.005 USDC (agents)");
    expect(r.stdout).toMatch(/^rug status \(agents\)\s+the agents endpoint's rug_status/m);
  });
});
