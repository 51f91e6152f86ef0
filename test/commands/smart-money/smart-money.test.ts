import { beforeAll, describe, expect, it } from "vitest";
import { type HostileServer, sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel smart-money` run in-process through run() against the sandbox and against a small
// server that answers in the documented shape: the records as served, lists of 30 a request, exact
// figures, the flow board, --where, --sort and --watch --diff on the flows.

const { KEY, servers, sandbox, cliAt } = useKeyedSandbox("smart-money", {}, { COLUMNS: "200" });
const cli = (args: string[], o: { env?: Record<string, string>; base?: string; dir?: string } = {}) =>
  cliAt({ url: o.base ?? sandbox.url }, args, o.env, o.dir ?? servers.folder());

type Rec = Record<string, unknown>;
const rows = (stdout: string) => stdout.trimEnd().split("\n");

/** Flows in the documented shape: six numbers a direction, written as the test gives them. */
const flow = (usd24: string, usd7: string, usd30: string, tok = "1") =>
  `{"usd_value_24h":${usd24},"token_24h":${tok},"usd_value_7d":${usd7},"token_7d":${tok},"usd_value_30d":${usd30},"token_30d":${tok}}`;

describe("smart-money", () => {
  it("on the sandbox: the records as served, in the order asked, one request for up to 30", async () => {
    const direct = await fetch(
      `${sandbox.url}/v1/smart-money-trends?api_key=${KEY}&token_tickers=AIXBT,VIRTUAL`,
    );
    const served = (await direct.json()) as { data: Rec[] };
    const before = sandbox.stats.byPath["/v1/smart-money-trends"] ?? 0;
    const r = await cli(["smart-money", "--tickers", "VIRTUAL,AIXBT", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Rec[];
    expect(records.map((x) => x.symbol)).toEqual(["VIRTUAL", "AIXBT"]);
    const byName = Object.fromEntries(served.data.map((x) => [x.symbol, x]));
    expect(records).toEqual([byName.VIRTUAL, byName.AIXBT]);
    expect((sandbox.stats.byPath["/v1/smart-money-trends"] ?? 0) - before).toBe(1);
  });

  it("without --tickers or --addresses: exit 2 before any request", async () => {
    const before = sandbox.stats.requests;
    const r = await cli(["smart-money"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tokenintel: smart-money: name the tokens with --tickers or --addresses\n");
    expect(sandbox.stats.requests).toBe(before);
  });

  describe("against a server in the documented shape", () => {
    let server: HostileServer;
    const seen: string[][] = [];
    beforeAll(async () => {
      // Answers each ticker asked for, in reverse order, with flows whose digits a double would lose.
      server = await servers.stub((req, res) => {
        const url = new URL(req.url ?? "/", "http://x");
        expect(url.pathname).toBe("/v1/smart-money-trends");
        expect(url.searchParams.has("page")).toBe(false);
        expect(url.searchParams.has("chain")).toBe(false);
        const tickers = (url.searchParams.get("token_tickers") ?? "").split(",");
        seen.push(tickers);
        const records = tickers
          .reverse()
          .map((t) =>
            t === "AAA"
              ? `{"symbol":"AAA","token_address":"0xaaa","net_inflow":${flow("1500000.10000000000000000001", "100", "1e21")},"net_outflow":${flow("300000", "250.5", "5")}}`
              : `{"symbol":"${t}","token_address":"0x${t.toLowerCase()}","net_inflow":${flow("10", "20", "30")},"net_outflow":${flow("10", "20", "30")}}`,
          );
        sendJson(res, `{"success":true,"data":[${records.join(",")}]}`);
      });
    });

    it("JSON keeps every digit as sent; NDJSON too", async () => {
      const r = await cli(["smart-money", "--tickers", "AAA", "--json"], { base: server.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('"usd_value_24h": 1500000.10000000000000000001');
      expect(r.stdout).toContain('"usd_value_30d": 1e21');
      const nd = await cli(["smart-money", "--tickers", "AAA", "--ndjson"], { base: server.url });
      expect(nd.stdout).toContain('"usd_value_24h":1500000.10000000000000000001');
    });

    it("the flow board: inflow, outflow and their net per window, signed and coloured", async () => {
      const r = await cli(["--color", "always", "smart-money", "--tickers", "AAA", "-o", "table"], {
        base: server.url,
      });
      expect(r.code, r.stderr).toBe(0);
      const [head, row] = rows(r.stdout).map((l) => l.replace(/\u001b\[\d+m/g, ""));
      expect(head).toMatch(
        /^SYMBOL\s+IN 24H\s+OUT 24H\s+NET 24H\s+IN 7D\s+OUT 7D\s+NET 7D\s+IN 30D\s+OUT 30D\s+NET 30D$/,
      );
      // 1500000.1… − 300000 = +$1.2M; 100 − 250.5 = −$150.5; 1e21 − 5 stays exact.
      expect(row).toMatch(
        /^AAA\s+\$1\.50M\s+\$300\.00K\s+\+\$1\.20M\s+\$100\.00\s+\$250\.50\s+-\$150\.50\s+\S+\s+\$5\.00\s+\+\$\S+$/,
      );
      expect(r.stdout).toMatch(/\u001b\[32m *\+\$1\.20M\u001b\[39m/);
      expect(r.stdout).toMatch(/\u001b\[31m *-\$150\.50\u001b\[39m/);
      const wide = await cli(["smart-money", "--tickers", "AAA", "-o", "table", "--wide"], {
        base: server.url,
      });
      expect(rows(wide.stdout)[0]).toMatch(/TOK IN 24H\s+TOK OUT 24H.*TOK OUT 30D\s+ADDRESS$/);
    });

    it("a list of 31 tickers: two requests of 30 and 1, merged in the order given", async () => {
      seen.length = 0;
      const tickers = Array.from({ length: 31 }, (_, i) => `T${String(i).padStart(2, "0")}`);
      const r = await cli(["smart-money", "--tickers", tickers.join(","), "--json"], { base: server.url });
      expect(r.code, r.stderr).toBe(0);
      expect(seen.map((s) => s.length).sort()).toEqual([1, 30]);
      expect((JSON.parse(r.stdout) as Rec[]).map((x) => x.symbol)).toEqual(tickers);
    });

    it("--where and --sort read the flows, exactly", async () => {
      const r = await cli(
        [
          "smart-money",
          "--tickers",
          "T01,AAA,T02",
          "--where",
          "net_inflow.usd_value_24h>1500000.1",
          "--sort",
          "symbol:desc",
          "--json",
        ],
        { base: server.url },
      );
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Rec[]).map((x) => x.symbol)).toEqual(["AAA"]);
      const sorted = await cli(
        ["smart-money", "--tickers", "T01,AAA,T02", "--sort", "symbol:desc", "--json"],
        {
          base: server.url,
        },
      );
      expect((JSON.parse(sorted.stdout) as Rec[]).map((x) => x.symbol)).toEqual(["T02", "T01", "AAA"]);
    });

    it("--watch --diff into a pipe: one line for the flow that changed, exact", async () => {
      // The second answer: AAA's 24h inflow has grown; nothing else changed.
      const moving = await servers.stub((_req, res, _seen, index) =>
        sendJson(
          res,
          `{"success":true,"data":[{"symbol":"AAA","token_address":"0xaaa","net_inflow":${flow(index === 0 ? "1500000.10000000000000000001" : "2500000", "100", "30")},"net_outflow":${flow("300000", "250.5", "5")}}]}`,
        ),
      );
      const r = await run(
        [
          "--base-url",
          moving.url,
          "smart-money",
          "--tickers",
          "AAA",
          "--watch",
          "1s",
          "--count",
          "2",
          "--diff",
        ],
        servers.folder(),
        { env: { TOKENINTEL_API_KEY: KEY } },
      );
      expect(r.code, r.stderr).toBe(0);
      const lines = rows(r.stdout).map((l) => JSON.parse(l) as Rec);
      expect(lines.map(({ at: _, ...rest }) => rest)).toEqual([
        { id: null, symbol: "AAA", field: "net_inflow.usd_value_24h", from: 1500000.1, to: 2500000 },
      ]);
      expect(r.stdout).toContain('"from":1500000.10000000000000000001');
    });
  });
});
