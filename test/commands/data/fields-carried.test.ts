import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// The field checks accept what the records carry: the seed's TA records have
// symbol, name and usd_price at the top level, and a record may carry fields no shape lists; a
// field no record has is named, never an answer of empty objects.

const servers = useServers();
const dir = servers.folder();

/** TA records as the seed sends them: the symbol, name and price at the top level. */
const SEED_TA = [
  {
    token_id: "t1",
    symbol: "BAKO",
    name: "Bako",
    usd_price: "0.52",
    momentum: 3,
  },
  {
    token_id: "t2",
    symbol: "AIXBT",
    name: "aixbt",
    usd_price: "0.13",
    momentum: 9,
  },
  {
    token_id: "t3",
    symbol: "VIRTUAL",
    name: "Virtual",
    usd_price: "1.91",
    momentum: 1,
  },
];

async function seedServer() {
  return servers.stub((_req, res) =>
    sendJson(res, { success: true, data: SEED_TA, pagination: { currentPage: 1, totalPages: 1 } }),
  );
}

const ta = async (args: string[]) => {
  const server = await seedServer();
  return run(["ta", "--base-url", server.url, "--api-key", "k", "-c", "base", ...args], dir);
};

describe("fields the records carry beyond their shape", () => {
  it("--fields takes a top-level field the shape does not list", async () => {
    const r = await ta(["--fields", "symbol,usd_price", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(SEED_TA.map(({ symbol, usd_price }) => ({ symbol, usd_price })));
    expect(r.stderr).toBe("");
  });

  it("--sort and --where work on the seed's fields", async () => {
    const r = await ta(["--sort", "usd_price:desc", "--where", "symbol~A", "--fields", "symbol", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ symbol: "VIRTUAL" }, { symbol: "BAKO" }, { symbol: "AIXBT" }]);
    // A filter that keeps some and drops others.
    const some = await ta(["--where", "symbol~AI", "--fields", "symbol", "--json"]);
    expect(JSON.parse(some.stdout)).toEqual([{ symbol: "AIXBT" }]);
  });

  it("--fields, --sort and --where take a field no shape lists when the records carry it", async () => {
    const r = await ta([
      "--sort",
      "momentum:desc",
      "--where",
      "momentum>=3",
      "--fields",
      "symbol,momentum",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    // Not the server's order (BAKO, AIXBT): the sort's.
    expect(JSON.parse(r.stdout)).toEqual([
      { symbol: "AIXBT", momentum: 9 },
      { symbol: "BAKO", momentum: 3 },
    ]);
    expect(r.stderr).toBe("");
  });

  it("a documented field no record had is named at the end, with the fields the records have", async () => {
    const r = await ta(["--fields", "token_info.symbol", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /--fields: "token_info\.symbol": no record had it; its column is empty .*\(the records have symbol\)/,
    );
  });

  it("a --where or --sort field no shape lists and no record has is refused before anything is written", async () => {
    for (const args of [
      ["--where", "volatility=3"],
      ["--sort", "volatility"],
    ]) {
      const r = await ta([...args, "--json"]);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/"volatility": no record has it in ta/);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("a typo of a documented field is refused before any request, with the fix", async () => {
    const server = await seedServer();
    const r = await run(
      ["ta", "--base-url", server.url, "--api-key", "k", "-c", "base", "--sort", "usd_prise"],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown field "usd_prise" for ta \(did you mean usd_price/);
    expect(server.requests).toHaveLength(0);
  });

  it("a field path that cannot be one is refused before any request", async () => {
    const server = await seedServer();
    const r = await run(
      ["ta", "--base-url", server.url, "--api-key", "k", "-c", "base", "--fields", "a..b"],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown field "a\.\.b" for ta/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("a field name JavaScript objects answer to", () => {
  it("toString and hasOwnProperty read nothing from a record: empty columns, named", async () => {
    for (const format of ["csv", "json", "table"]) {
      const r = await ta(["--fields", "symbol,toString,hasOwnProperty", "-o", format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/function|native code|\[object/);
      expect(r.stderr).toMatch(/no record had "toString", "hasOwnProperty"/);
    }
  });

  it("constructor and __proto__ are refused before any request (prototype-keys.test.ts has the rest)", async () => {
    const server = await seedServer();
    for (const path of ["constructor", "__proto__"]) {
      const r = await run(
        ["ta", "--base-url", server.url, "--api-key", "k", "-c", "base", "--fields", `symbol,${path}`],
        dir,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^tokenintel: --fields: "${path}": "${path}" is no field name: `));
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("a field no record has, against a listing of many pages", () => {
  /** A market listing of 34 pages of 30 records, none with a "volatility" field. */
  const listing = () =>
    servers.stub((req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? 1);
      sendJson(res, {
        success: true,
        data: Array.from({ length: 30 }, (_, i) => ({
          id: `p${page}r${i}`,
          token_info: { symbol: `T${i}` },
        })),
        meta: { pagination: { page, pageSize: 30, pageCount: 34, total: 34 * 30 } },
      });
    });
  const market = (url: string, args: string[]) =>
    run(["--base-url", url, "--api-key", "k", "market", "-c", "base", ...args], dir);

  it("--where on it is refused after the first page, not after all 34 (each may be paid for)", async () => {
    for (const extra of [["--json"], ["--watch", "1s", "--count", "2", "--ndjson"]]) {
      const server = await listing();
      const r = await market(server.url, ["--where", "volatility>1", ...extra]);
      expect(r.code, `${extra.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe('tokenintel: --where: "volatility": no record has it in market\n');
      expect(r.stdout).toBe("");
      // The walk reads a few pages ahead: far fewer than the 34 it read before.
      expect(server.requests.length, extra.join(" ")).toBeLessThanOrEqual(5);
    }
  });

  it("--watch names a column no record had, once", async () => {
    const server = await listing();
    const r = await market(server.url, [
      "--limit",
      "2",
      "--fields",
      "volatility",
      "--watch",
      "1s",
      "--count",
      "2",
      "--ndjson",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'tokenintel: warning: --fields: "volatility": no record had it; its column is empty in market\n',
    );
  });
});
