import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { useServers } from "../fixtures.js";
import type { HostileServer } from "../hostile-server.js";
import { inTerminal, plain } from "../terminal-session.js";

// --watch --diff: one NDJSON line per changed field, exact values, against a server whose
// refreshes are scripted (one request a refresh: a single short page).

const servers = useServers();
const dir = { path: servers.folder() };
let server: HostileServer;
/** Requests before the running test's first: each test's watch starts at the first refresh. */
let start = 0;

const token = (id: string, symbol: string, price: string, holders: number | string) => ({
  id,
  token_info: { symbol, name: `${symbol} token` },
  token_metrics: { usd_price: price, mcap: "1000" },
  token_holder_insights: { total_holder_count: holders },
});

/** The records of each refresh, in order; the last repeats. */
const REFRESHES = [
  [token("a", "AAA", "1.00", 10), token("b", "BBB", "2", 20)],
  // AAA's price moves by 1e-21 (exactness), its holders stay; BBB leaves; CCC enters.
  [token("a", "AAA", "1.000000000000000000001", 10), token("c", "CCC", "3", 30)],
  // CCC's holders fall; nothing else moves.
  [token("a", "AAA", "1.000000000000000000001", 10), token("c", "CCC", "3", 29)],
];

beforeAll(async () => {
  server = await servers.stub((_req, res, _seen, index) => {
    res.setHeader("content-type", "application/json");
    const data = REFRESHES[Math.min(index - start, REFRESHES.length - 1)];
    res.end(`{"success":true,"data":${JSON.stringify(data)}}`);
  });
});

const cli = (args: string[], env: Record<string, string> = {}) => {
  start = server.requests.length;
  return run(["--base-url", server.url, "--api-key", "k", "market", "-c", "base", ...args], dir.path, {
    env,
  });
};

const lines = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const { at, ...rest } = JSON.parse(l) as Record<string, unknown>;
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      return rest;
    });

describe("--watch --diff", () => {
  it("writes one line per changed field, exact, and a line for a token that enters or leaves", async () => {
    const before = server.requests.length;
    const r = await cli(["--watch", "1s", "--count", "3", "--diff"]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.length - before).toBe(3);
    expect(r.stdout).toContain('"to":"1.000000000000000000001"');
    expect(lines(r.stdout)).toEqual([
      {
        id: "a",
        symbol: "AAA",
        field: "token_metrics.usd_price",
        from: "1.00",
        to: "1.000000000000000000001",
      },
      { id: "c", symbol: "CCC", field: null, from: "absent", to: "present" },
      { id: "b", symbol: "BBB", field: null, from: "present", to: "absent" },
      { id: "c", symbol: "CCC", field: "token_holder_insights.total_holder_count", from: 30, to: 29 },
    ]);
  });

  it("--fields watches only those paths", async () => {
    const r = await cli([
      "--watch",
      "1s",
      "--count",
      "3",
      "--diff",
      "--fields",
      "token_holder_insights.total_holder_count",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      { id: "c", symbol: "CCC", field: null, from: "absent", to: "present" },
      { id: "b", symbol: "BBB", field: null, from: "present", to: "absent" },
      { id: "c", symbol: "CCC", field: "token_holder_insights.total_holder_count", from: 30, to: 29 },
    ]);
  });

  it("--where decides which tokens are watched: the others say nothing", async () => {
    const r = await cli(["--watch", "1s", "--count", "3", "--diff", "--where", "token_info.symbol~a"]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      {
        id: "a",
        symbol: "AAA",
        field: "token_metrics.usd_price",
        from: "1.00",
        to: "1.000000000000000000001",
      },
    ]);
  });

  it("with --sandbox the markets move during a watch, so a new user sees changes", async () => {
    const r = await run(
      ["market", "--sandbox", "-c", "base", "--limit", "2", "--watch", "1s", "--count", "2", "--diff"],
      dir.path,
    );
    expect(r.code, r.stderr).toBe(0);
    const changes = lines(r.stdout);
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect(c.field).toMatch(/^\w+(\.\w+)*$/);
  });

  it("needs --watch", async () => {
    const r = await cli(["--diff"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("tokenintel: --diff needs --watch");
  });

  it("on a terminal, a line under the table says what changed", async () => {
    start = server.requests.length;
    const s = inTerminal(
      [
        "--base-url",
        server.url,
        "--api-key",
        "k",
        "market",
        "-c",
        "base",
        "--watch",
        "1s",
        "--count",
        "2",
        "--diff",
      ],
      dir.path,
      { COLUMNS: "120" },
    );
    expect(await s.exited).toBe(0);
    // --count reached: the last frame stays on the normal screen, its last line the summary.
    const screen = plain(s.screen()).filter((l) => l.trim() !== "");
    const last = screen[screen.length - 1]!;
    expect(last).toMatch(/^what changed: /);
    expect(last).toContain("usd_price 1.00→1.000000000000000000001");
    expect(last).toContain("CCC entered");
    expect(last).toContain("BBB left");
  });
});
