import { describe, expect, it } from "vitest";
import { sendJson } from "../../e2e/hostile-server.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// The two generations of the API's paths, run in-process through run() against the sandbox (which
// answers both) and against servers that know one: --api-paths, TOKENINTEL_API_PATHS and config
// api-paths choose; a 404 that says "no route" names the other generation's path.

const { servers, sandbox, cliAt } = useKeyedSandbox("api-paths", {}, { COLUMNS: "200" });
const cli = (args: string[], o: { env?: Record<string, string>; base?: string; dir?: string } = {}) =>
  cliAt({ url: o.base ?? sandbox.url }, args, o.env, o.dir ?? servers.folder());

type Rec = Record<string, unknown>;

describe("path generations (--api-paths, TOKENINTEL_API_PATHS, config api-paths)", () => {
  it("the older paths by default, the newer on request; the sandbox answers both", async () => {
    const before = { ...sandbox.stats.byPath };
    const count = (path: string) => (sandbox.stats.byPath[path] ?? 0) - (before[path] ?? 0);
    expect((await cli(["staking", "--tickers", "VIRTUAL", "--json"])).code).toBe(0);
    expect([count("/v1/stake-trends"), count("/v1/staking-intelligence")]).toEqual([1, 0]);
    const newer = await cli(["--api-paths", "newer", "staking", "--tickers", "VIRTUAL", "--json"]);
    expect(newer.code, newer.stderr).toBe(0);
    expect([count("/v1/stake-trends"), count("/v1/staking-intelligence")]).toEqual([1, 1]);
    // The newer path's record: tvl_usd, not tvl.
    const details = (JSON.parse(newer.stdout) as Array<{ staking_details: Rec }>)[0]!.staking_details;
    expect(Object.keys(details)).toContain("tvl_usd");
    const env = await cli(["trending", "-c", "base", "--limit", "1", "--json"], {
      env: { TOKENINTEL_API_PATHS: "newer" },
    });
    expect(env.code, env.stderr).toBe(0);
    expect(count("/v1/trending-tokens")).toBe(1);
    expect(Object.keys((JSON.parse(env.stdout) as Rec[])[0]!)).toContain("market_cap_usd");
    // An endpoint the newer docs did not rename keeps its one path.
    expect((await cli(["--api-paths", "newer", "smart-money", "--tickers", "VIRTUAL"])).code).toBe(0);
    expect(count("/v1/smart-money-trends")).toBe(1);
    const bad = await cli(["--api-paths", "newest", "trending"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--api-paths: unknown path generation "newest" \(expected older, newer\)/);
  });

  it('a 404 that says "no route" on one generation names the other', async () => {
    const server = await servers.stub((req, res) =>
      sendJson(res, { success: false, message: `no route for ${req.url?.split("?")[0]}` }, 404),
    );
    const older = await cli(["trending"], { base: server.url });
    expect(older.code).toBe(1);
    expect(older.stderr).toMatch(
      /no route for \/v1\/trending.*\(the newer path of this endpoint is \/v1\/trending-tokens: --api-paths newer\)\n$/,
    );
    const newer = await cli(["--api-paths", "newer", "staking", "--tickers", "A"], { base: server.url });
    expect(newer.stderr).toMatch(
      /no route for \/v1\/staking-intelligence.*\(the older path of this endpoint is \/v1\/stake-trends: --api-paths older\)\n$/,
    );
    // A 404 that says something else is left as it is.
    const other = await servers.stub((_req, res) =>
      sendJson(res, { success: false, message: "token not found" }, 404),
    );
    const plain = await cli(["trending"], { base: other.url });
    expect(plain.stderr).not.toMatch(/--api-paths/);
  });
});
