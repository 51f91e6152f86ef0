import { beforeAll, describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import type { HostileServer } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// ask --explain, run in-process through run(): the answer, then the market figures of the tokens it names,
// fetched in one request, each found token with the verdict `check` gives it, each missing one named.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_explain`;
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const cli = (args: string[], base = sandbox.url) =>
  run(["--base-url", base, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, COLUMNS: "120" } });

type Row = Record<string, unknown>;

describe("ask --explain", () => {
  const token = () => sandbox.data.list("base", undefined)[41]!; // one with every section (every ninth lacks some)

  it("--json gives {answer, tokens}: exact market figures, check's verdict, a missing token named", async () => {
    const t = token();
    const before = sandbox.stats.byPath["/v1/crypto-market/"] ?? 0;
    const r = await cli([
      "ask",
      `is $${t.symbol} safe? and $NOPEZZ`,
      "--chain",
      "base",
      "--explain",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    // One market request for every token named (one chain, one kind of selector each).
    expect((sandbox.stats.byPath["/v1/crypto-market/"] ?? 0) - before).toBe(2);
    const out = JSON.parse(r.stdout) as { answer: Row; tokens: Row[] };
    expect(out.answer.nlpResponse).toContain(t.symbol);
    const market = sandbox.data.marketRecord(t) as Record<string, Record<string, unknown>>;
    const [found, missing] = out.tokens;
    expect(found).toMatchObject({
      named: t.id,
      found: true,
      missing: null,
      symbol: t.symbol,
      address: t.address,
      price: market.token_metrics!.usd_price,
      change_24h: market.token_metrics!.price_change_percentage_24h,
      mcap: market.token_metrics!.mcap,
      liquidity: market.token_metrics!.total_liquidity,
      holders: market.token_holder_insights!.total_holder_count,
    });
    const check = JSON.parse((await cli(["check", "-c", "base", "--ids", t.id, "--json"])).stdout) as Row[];
    expect(found!.risk).toBe(check[0]!.level);
    expect(missing).toMatchObject({
      named: "NOPEZZ",
      found: false,
      missing: "no market record",
      price: null,
    });
    expect(r.stderr).toContain("--explain: no market record for NOPEZZ");
  });

  it("a table shows the answer, then the figures under it; a token with no chain is named", async () => {
    const t = token();
    const r = await cli(["ask", `is $${t.symbol} safe?`, "--chain", "base", "--explain", "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    const tail = r.stdout.slice(r.stdout.indexOf("Market figures behind the answer:")).split("\n");
    expect(tail[1]).toMatch(/^TOKEN\s+PRICE\s+24H\s+MCAP\s+LIQ\s+HOLDERS\s+RISK$/);
    expect(tail[2]).toMatch(new RegExp(`^${t.symbol}\\s+\\S+\\s+[+-]\\d+\\.\\d\\d%.*\\s(LOW|MEDIUM|HIGH)$`));
    // Without --chain and without a detail naming one, a $TICKER cannot be looked up: said, kept.
    const none = await cli(["ask", "what about $NOPEZZ?", "--explain", "-o", "table"]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/NOPEZZ\s+-.*no chain$/m);
    expect(none.stderr).toContain("no chain for NOPEZZ");
  });

  it("writes a table, JSON or NDJSON: CSV is a usage error before any request", async () => {
    const before = sandbox.stats.byPath["/v1/ask-loky"] ?? 0;
    const r = await cli(["ask", "anything $X", "--explain", "-o", "csv"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("tokenintel: ask --explain writes a table, JSON or NDJSON, not csv");
    expect(sandbox.stats.byPath["/v1/ask-loky"] ?? 0).toBe(before);
  });
});

describe("ask --explain against an answer without token details", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await servers.stub((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url?.startsWith("/v1/ask-loky")) {
        res.end(JSON.stringify({ questionId: "q", answerId: "a", nlpResponse: "Both look fine." }));
        return;
      }
      const url = new URL(req.url ?? "/", "http://x");
      const tickers = (url.searchParams.get("token_tickers") ?? "").split(",");
      const data = tickers
        .filter((s) => s === "AAA")
        .map((s) => ({
          id: "id-aaa",
          token_info: { symbol: s },
          token_metrics: { usd_price: "0.000000000000000000012345" },
        }));
      res.end(JSON.stringify({ success: true, data }));
    });
  });

  it("looks up the $TICKERS of the question, in one request, and keeps every digit", async () => {
    const r = await cli(
      ["ask", "compare $AAA with $BBB", "--chain", "base", "--explain", "--json"],
      server.url,
    );
    expect(r.code, r.stderr).toBe(0);
    const market = server.requests.filter((q) => q.url.startsWith("/v1/crypto-market/"));
    expect(market).toHaveLength(1);
    expect(new URL(market[0]!.url, "http://x").searchParams.get("token_tickers")).toBe("AAA,BBB");
    expect(r.stdout).toContain('"price": "0.000000000000000000012345"');
    const out = JSON.parse(r.stdout) as { tokens: Row[] };
    expect(out.tokens.map((t) => [t.named, t.found])).toEqual([
      ["AAA", true],
      ["BBB", false],
    ]);
  });
});

describe("ask --explain is bounded", () => {
  it("an answer naming 3,000 tokens: 30 looked up, one market request per chain, the rest counted; unknown chains never asked", async () => {
    const chains = ["base", "solana", "ethereum", "base&chain=evil", "SOLANA"];
    const details = Array.from({ length: 3000 }, (_, i) => ({
      token_id: `id-${i}`,
      chain: chains[i % chains.length],
    }));
    const server = await servers.stub((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url?.startsWith("/v1/ask-loky")) {
        res.end(
          JSON.stringify({ questionId: "q", answerId: "a", nlpResponse: "Many.", tokenDetails: details }),
        );
        return;
      }
      const ids = (new URL(req.url ?? "/", "http://x").searchParams.get("token_ids") ?? "").split(",");
      res.end(JSON.stringify({ success: true, data: ids.map((id) => ({ id, token_info: { symbol: id } })) }));
    });
    const r = await cli(["ask", "which tokens?", "--explain", "--json"], server.url);
    expect(r.code, r.stderr).toBe(0);
    const market = server.requests.filter((q) => q.url.startsWith("/v1/crypto-market/"));
    const asked = market.map((q) => new URL(q.url, "http://x").searchParams);
    expect(asked.map((q) => q.getAll("chain")).sort()).toEqual([["base"], ["solana"]]);
    expect(asked.flatMap((q) => q.get("token_ids")!.split(",")).length).toBeLessThanOrEqual(30);
    expect(r.stderr).toContain(
      "--explain: the answer names 3,000 tokens; the first 30 are looked up, 2,970 left out",
    );
    const out = JSON.parse(r.stdout) as { tokens: Row[] };
    expect(out.tokens).toHaveLength(30);
    // The first 30: 6 on base, 12 on solana (either case), 12 on chains tokenintel does not know.
    expect(out.tokens.filter((t) => t.found).length).toBe(18);
    expect(out.tokens.filter((t) => t.missing === "no chain").length).toBe(12);
  });
});
