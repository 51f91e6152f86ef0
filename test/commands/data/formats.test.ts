import { describe, expect, it } from "vitest";
import { run } from "../harness.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// What every data command writes, run in-process through run() against the sandbox: each output
// format (JSON, NDJSON, CSV, the table) and its default, --fields and --columns, numbers kept as
// sent, and --sort in every format.

// TA in its older flat form here; the documented form (the sandbox's default) is tested in
// test/e2e/ta/ta-shapes.test.ts.
const { KEY, servers, dir, sandbox, cli } = useKeyedSandbox("formats", { taStyle: "flat" });

function expectedVirtuals(chain: "base" | "solana") {
  return sandbox.data.list(chain, "virtuals");
}

describe("output formats", () => {
  const args = ["market", "-c", "base", "-e", "virtuals", "--limit", "35"];

  it("defaults to JSON when stdout is not a terminal, and to a table when it is", async () => {
    const piped = await cli(args);
    expect(JSON.parse(piped.stdout)).toHaveLength(35);
    // Wide enough for every column beside the longest symbol (a symbol is never cut to fit).
    const tty = await cli(args, { TOKENINTEL_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "160" });
    const lines = tty.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^SYMBOL\s+NAME\s+PRICE\s+1H\s+24H\s+7D\s+MCAP\s+VOL 24H\s+LIQ\s+HOLDERS\s+RSI\s+MIND 7D$/,
    );
    expect(lines).toHaveLength(36);
    const first = expectedVirtuals("base")[0]!;
    expect(lines[1]).toContain(first.symbol);
    expect(tty.stdout).not.toMatch(/\x1b\[/); // NO_COLOR
  });

  it("ndjson writes one record per line", async () => {
    const r = await cli([...args, "--ndjson"]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(35);
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(
      expectedVirtuals("base")
        .slice(0, 35)
        .map((t) => t.id),
    );
  });

  it("csv flattens nested fields to dot-path columns", async () => {
    const r = await cli([...args, "-o", "csv"]);
    expect(r.stdout).not.toContain("\r");
    const lines = r.stdout.trimEnd().split("\n");
    const header = lines[0]!.split(",");
    expect(header.slice(0, 3)).toEqual(["id", "token_info.id", "token_info.symbol"]);
    expect(header).toContain("token_metrics.usd_price");
    expect(header).toContain("x_social_metrics.mindshare_7d");
    expect(lines).toHaveLength(36);
    const first = sandbox.data.marketRecord(expectedVirtuals("base")[0]!) as {
      token_metrics: { usd_price: string };
    };
    const priceColumn = header.indexOf("token_metrics.usd_price");
    expect(lines[1]!.split(",")[priceColumn]).toBe(first.token_metrics.usd_price);
  });

  it("--fields keeps only the named dot paths, in every format", async () => {
    const fields = ["--fields", "token_info.symbol,token_metrics.usd_price"];
    const json = await cli([...args, ...fields, "--json"]);
    const records = JSON.parse(json.stdout) as unknown[];
    const t = sandbox.data.marketRecord(expectedVirtuals("base")[0]!) as {
      token_info: { symbol: string };
      token_metrics: { usd_price: string };
    };
    expect(records[0]).toEqual({
      token_info: { symbol: t.token_info.symbol },
      token_metrics: { usd_price: t.token_metrics.usd_price },
    });
    const csv = await cli([...args, ...fields, "-o", "csv"]);
    expect(csv.stdout.split("\n")[0]).toBe("token_info.symbol,token_metrics.usd_price");
    const ndjson = await cli([...args, ...fields, "--ndjson"]);
    expect(JSON.parse(ndjson.stdout.split("\n")[0]!)).toEqual(records[0]);
    const table = await cli([...args, ...fields, "-o", "table"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^\s*SYMBOL\s+PRICE$/);
  });

  it("--columns chooses the table's columns and leaves the data of other formats whole", async () => {
    const cols = ["--columns", "token_info.symbol,token_metrics.mcap"];
    const table = await cli([...args, ...cols, "-o", "table"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^SYMBOL\s+MCAP$/);
    const json = JSON.parse((await cli([...args, ...cols, "--json"])).stdout) as unknown[];
    expect(json[0]).toEqual(sandbox.data.marketRecord(expectedVirtuals("base")[0]!));
    const bad = await cli([...args, "--columns", "token_info.nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--columns: unknown field "token_info.nope"/);
  });

  it("keeps numbers with more digits than a double holds exactly as sent", async () => {
    // The binary parses with exact numbers; checked here through a server that sends them.
    const body =
      '{"success":true,"data":[{"id":"x1","token_metrics":{"usd_price":0.000000000123456789012345,"mcap":123456789012345678901234567890,"fdv":1.10}}],"meta":{"pagination":{"page":1,"pageSize":30,"pageCount":1,"total":1}}}';
    const server = await servers.stub((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    const r = await run(["--base-url", server.url, "market", "-c", "base", "--json"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"usd_price": 0.000000000123456789012345');
    expect(r.stdout).toContain('"mcap": 123456789012345678901234567890');
    expect(r.stdout).toContain('"fdv": 1.10');
    const csv = await run(["--base-url", server.url, "market", "-c", "base", "-o", "csv"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(csv.stdout).toContain("x1,0.000000000123456789012345,123456789012345678901234567890,1.10");
  });
});

describe("every command in every output format", () => {
  const commands: Array<[string, string[]]> = [
    ["market", ["market", "-c", "base", "-e", "virtuals", "--limit", "3"]],
    ["directory", ["directory", "-c", "solana", "--limit", "3"]],
    ["agents", ["agents", "-c", "base", "--limit", "3"]],
    ["ta", ["ta", "-c", "solana", "--limit", "3"]],
  ];
  for (const [name, args] of commands) {
    it(name, async () => {
      const json = await cli([...args, "-o", "json"]);
      expect(json.code).toBe(0);
      const records = JSON.parse(json.stdout) as Array<{ id: string }>;
      expect(records).toHaveLength(3);
      const ndjson = await cli([...args, "-o", "ndjson"]);
      expect(
        ndjson.stdout
          .trimEnd()
          .split("\n")
          .map((l) => (JSON.parse(l) as { id: string }).id),
      ).toEqual(records.map((r) => r.id));
      const csv = await cli([...args, "-o", "csv"]);
      const rows = csv.stdout.trimEnd().split("\n");
      expect(rows).toHaveLength(4);
      expect(rows[0]!.split(",")[0]).toBe("id");
      expect(rows.slice(1).map((r) => r.split(",")[0])).toEqual(records.map((r) => r.id));
      const table = await cli([...args, "-o", "table"], { NO_COLOR: "1" });
      expect(table.stdout.trimEnd().split("\n")).toHaveLength(4);
      expect(table.stdout.split("\n")[0]).toMatch(/^\s*SYMBOL\s/);
    });
  }
});

describe("--sort", () => {
  it("sorts by any dot path, numerically for decimal strings, in every format", async () => {
    const args = [
      "market",
      "-c",
      "base",
      "-e",
      "virtuals",
      "--limit",
      "40",
      "--sort",
      "token_metrics.usd_price:desc",
    ];
    const json = JSON.parse((await cli([...args, "--json"])).stdout) as Array<{
      id: string;
      token_metrics: { usd_price: string };
    }>;
    const prices = json.map((r) => r.token_metrics.usd_price);
    // Exact comparison of the decimal strings, largest first (a float sort agrees at these sizes).
    expect(prices).toEqual([...prices].sort((a, b) => Number(b) - Number(a)));
    // --limit cuts the sorted whole: the 40 highest prices of every virtuals token, not of the first 40.
    const all = expectedVirtuals("base").map(
      (t) => sandbox.data.marketRecord(t) as { id: string; token_metrics: { usd_price: string } },
    );
    const top = [...all]
      .sort((a, b) => Number(b.token_metrics.usd_price) - Number(a.token_metrics.usd_price))
      .slice(0, 40);
    expect(new Set(json.map((r) => r.id))).toEqual(new Set(top.map((r) => r.id)));
    const nd = (await cli([...args, "--ndjson"])).stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(nd).toEqual(json.map((r) => r.id));
    const csv = (await cli([...args, "-o", "csv", "--fields", "id"])).stdout.trim().split("\n").slice(1);
    expect(csv).toEqual(json.map((r) => r.id));
    const asc = JSON.parse(
      (await cli([...args.slice(0, -1), "token_info.symbol", "--json"])).stdout,
    ) as Array<{
      token_info: { symbol: string };
    }>;
    const symbols = asc.map((r) => r.token_info.symbol);
    expect(symbols).toEqual([...symbols].sort((a, b) => a.localeCompare(b)));
    const bad = await cli([...args.slice(0, -1), "token_metrics.nope"]);
    expect(bad.code).toBe(2);
    // A field no shape lists is looked for in the records: none of page 1 has it.
    expect(bad.stderr).toMatch(/--sort: "token_metrics.nope": no record has it in market/);
  });
});
