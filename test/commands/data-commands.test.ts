import { describe, expect, it } from "vitest";
import { recordSchemaFor } from "../../src/api/schemas.js";
import { AWKWARD_SYMBOLS } from "../../src/sandbox/data.js";
import type { SandboxServer } from "../../src/sandbox/server.js";
import { neverShown, useSandbox, useServers } from "../e2e/fixtures.js";
import { run } from "./harness.js";

// The data commands run in-process through run() against the sandbox on a free port.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_secret`;
const servers = useServers();
const dir = { path: servers.folder() };
// TA in its older flat form here; the documented form (the sandbox's default) is tested in
// live-shapes.test.ts.
const sandbox = useSandbox({ apiKey: KEY, taStyle: "flat" });
// Whatever a test does, the key never reaches any stream of any of its runs.
neverShown(KEY);

/** Runs against another sandbox (one started with other options), with the same key. */
const cliAt = (server: SandboxServer, args: string[]) =>
  run(["--base-url", server.url, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY } });

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  run(["--base-url", sandbox.url, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY, ...env } });

function requestsTo(path: string): number {
  return sandbox.stats.byPath[path] ?? 0;
}

function expectedVirtuals(chain: "base" | "solana") {
  return sandbox.data.list(chain, "virtuals");
}

describe("market", () => {
  it("fetches every page of an ecosystem by default, in order, as one JSON document", async () => {
    const before = requestsTo("/v1/crypto-market/");
    const r = await cli(["market", "--chain", "base", "--ecosystem", "virtuals"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ id: string }>;
    const expected = expectedVirtuals("base");
    expect(records.map((x) => x.id)).toEqual(expected.map((t) => t.id));
    expect(requestsTo("/v1/crypto-market/") - before).toBe(Math.ceil(expected.length / 30));
    // The records are exactly what the server sent, nulls and decimal strings untouched.
    expect(records[0]).toEqual(sandbox.data.marketRecord(expected[0]!));
    for (const record of records)
      expect(recordSchemaFor("market", "strict").safeParse(record).success).toBe(true);
  });

  it("--limit stops after n records and requests only the pages needed", async () => {
    const before = requestsTo("/v1/crypto-market/");
    const r = await cli(["market", "-c", "base", "-e", "virtuals", "--limit", "45", "--json"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ id: string }>;
    expect(records.map((x) => x.id)).toEqual(
      expectedVirtuals("base")
        .slice(0, 45)
        .map((t) => t.id),
    );
    expect(requestsTo("/v1/crypto-market/") - before).toBe(2);
  });

  it("--page fetches exactly that page", async () => {
    const before = requestsTo("/v1/crypto-market/");
    const r = await cli(["market", "-c", "base", "-e", "virtuals", "--page", "3", "--json"]);
    expect(r.code).toBe(0);
    const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id);
    expect(ids).toEqual(
      expectedVirtuals("base")
        .slice(60, 90)
        .map((t) => t.id),
    );
    expect(requestsTo("/v1/crypto-market/") - before).toBe(1);
  });

  it("splits a 75-ticker list into requests of at most 30, merged in the order given, duplicates removed", async () => {
    const tokens = sandbox.data.list("base", undefined).slice(100, 172); // 72 real tickers
    const tickers = tokens.map((t) => t.symbol).reverse();
    const list = [
      ...tickers.slice(0, 40),
      tickers[0]!,
      "NOSUCH1",
      ...tickers.slice(40),
      "NOSUCH2",
      "NOSUCH3",
    ];
    expect(list.length).toBe(76); // 75 distinct after the repeat is dropped
    const before = requestsTo("/v1/crypto-market/");
    const r = await cli(["market", "-c", "base", "--tickers", list.join(","), "--json"]);
    expect(r.code).toBe(0);
    const symbols = (JSON.parse(r.stdout) as Array<{ token_info: { symbol: string } }>).map(
      (x) => x.token_info.symbol,
    );
    expect(symbols).toEqual(tickers);
    expect(requestsTo("/v1/crypto-market/") - before).toBe(3);
    expect(r.stderr).toMatch(/warning: no data for 3 of 75 tickers: NOSUCH1, NOSUCH2, NOSUCH3/);
  });

  it("encodes tickers with $ & + = ? # % spaces, emoji and escaped commas", async () => {
    // One leading $ is dropped ($AIXBT is AIXBT), so a ticker that really starts with $ is written $$.
    const list = AWKWARD_SYMBOLS.map((s) => (s.startsWith("$") ? `$${s}` : s).replace(/,/g, "\\,"));
    const r = await cli(["market", "-c", "base", "--tickers", list.join(","), "--json"]);
    expect(r.code).toBe(0);
    const symbols = (JSON.parse(r.stdout) as Array<{ token_info: { symbol: string } }>).map(
      (x) => x.token_info.symbol,
    );
    expect(symbols).toEqual(AWKWARD_SYMBOLS);
    expect(r.stderr).toBe("");
  });

  it("selects by addresses and ids", async () => {
    const [a, b] = sandbox.data.list("solana", undefined).slice(5, 7);
    const byAddress = await cli([
      "market",
      "-c",
      "solana",
      "--addresses",
      `${b!.address},${a!.address}`,
      "--json",
    ]);
    expect((JSON.parse(byAddress.stdout) as Array<{ id: string }>).map((x) => x.id)).toEqual([b!.id, a!.id]);
    const byId = await cli(["market", "-c", "solana", "--ids", a!.id, "--ids", b!.id, "--json"]);
    expect((JSON.parse(byId.stdout) as Array<{ id: string }>).map((x) => x.id)).toEqual([a!.id, b!.id]);
  });

  it("removes records the server repeats across pages", async () => {
    const dupes = await servers.sandbox({ apiKey: KEY, duplicateRate: 1 });
    const r = await cliAt(dupes, ["market", "-c", "base", "-e", "virtuals", "--ndjson"]);
    expect(r.code).toBe(0);
    const ids = r.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual(dupes.data.list("base", "virtuals").map((t) => t.id));
  });
});

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

describe("directory, agents, ta, ask", () => {
  it("directory walks pages until a short or empty page when the answer has no pagination", async () => {
    const before = requestsTo("/v1/crypto-metainfo");
    const r = await cli(["directory", "-c", "base", "--json"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ id: string }>;
    expect(records).toHaveLength(1000);
    expect(records[999]).toEqual(sandbox.data.directoryRecord(sandbox.data.list("base", undefined)[999]!));
    // 10 full pages, an empty one that says the list is done, and at most the 3 requested ahead of
    // it (4 in flight at the default concurrency; they may be dropped before they arrive).
    const made = requestsTo("/v1/crypto-metainfo") - before;
    expect(made).toBeGreaterThanOrEqual(11);
    expect(made).toBeLessThanOrEqual(14);
    // On a sandbox of its own: a request the first walk dropped may still reach this one's count.
    const own = await servers.sandbox({ apiKey: KEY, taStyle: "flat" });
    const r2 = await cliAt(own, ["directory", "-c", "base", "--limit", "250", "--json"]);
    expect(JSON.parse(r2.stdout)).toHaveLength(250);
    expect(own.stats.byPath["/v1/crypto-metainfo"]).toBe(3);
  });

  it("directory accepts a bare JSON array and a paginated envelope", async () => {
    for (const style of ["bare", "paginated"] as const) {
      const s = await servers.sandbox({ apiKey: KEY, directoryStyle: style });
      const r = await cliAt(s, ["directory", "-c", "solana", "-e", "virtuals", "--json"]);
      expect(r.code).toBe(0);
      const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id);
      expect(ids).toEqual(s.data.list("solana", "virtuals").map((t) => t.id));
    }
  });

  it("agents sends --tickers as agent_tickers and returns rug_status", async () => {
    const agents = sandbox.data.list("base", "virtuals").slice(3, 5);
    const r = await cli([
      "agents",
      "-c",
      "base",
      "--tickers",
      agents.map((a) => a.symbol).join(","),
      "--json",
    ]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<{ id: string; rug_status: string }>;
    expect(records).toEqual(agents.map((a) => sandbox.data.agentRecord(a)));
    for (const record of records)
      expect(recordSchemaFor("agents", "strict").safeParse(record).success).toBe(true);
  });

  it("ta pages across both chains when no chain is given, and leaves out intervals the server does not send", async () => {
    const r = await cli(["ta", "--limit", "40", "--json"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(40);
    const young = records.find((x) => !("price_change_percentage_30d" in x));
    expect(young).toBeDefined();
    const youngSymbol = (young!.token_info as { symbol: string }).symbol;
    const alone = await cli(
      [
        "ta",
        "-c",
        young!.token_info ? String((young!.token_info as { chain: string }).chain) : "base",
        "--tickers",
        youngSymbol,
      ],
      {
        TOKENINTEL_FORCE_TTY: "1",
        NO_COLOR: "1",
      },
    );
    // The grid shows the intervals the server sent and invents none.
    expect(alone.stdout.split("\n")[0]).toMatch(/^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+RSI$/);
    const mixed = await cli(["ta", "-c", "base", "--limit", "8"], {
      TOKENINTEL_FORCE_TTY: "1",
      NO_COLOR: "1",
    });
    const lines = mixed.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SYMBOL\s+1m\s+5m\s+15m\s+1h\s+4h\s+1d\s+1w\s+30d\s+RSI$/);
    expect(lines.some((l) => /\s-\s+-\s+\d+\.\d/.test(l))).toBe(true);
  });

  it("ask posts the question and prints the data object as JSON", async () => {
    const token = sandbox.data.list("base", undefined)[20]!;
    const r = await cli(["ask", `what about $${token.symbol}?`, "--chain", "base", "--json"]);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout) as { nlpResponse: string; tokenDetails: Array<{ token_id: string }> };
    expect(data.nlpResponse).toContain(token.symbol);
    // The sandbox says it is the sandbox, and links nowhere (it linked to a placeholder URL).
    expect(data.nlpResponse).toContain("Data from the tokenintel sandbox (`tokenintel sandbox`)");
    expect(data.nlpResponse).not.toMatch(/\]\(https?:/);
    expect(data.tokenDetails.map((d) => d.token_id)).toEqual([token.id]);
    // Unquoted, the words are one question (as gh joins a search's words), not "too many arguments".
    const words = await cli(["ask", "what", "about", `$${token.symbol}?`, "--chain", "base", "--json"]);
    expect(words.code, words.stderr).toBe(0);
    expect((JSON.parse(words.stdout) as { nlpResponse: string }).nlpResponse).toContain(
      `You asked: *what about $${token.symbol}?*`,
    );
  });

  it("ask renders the answer and a table of token details on a terminal, and reads the question from stdin", async () => {
    const token = sandbox.data.list("base", undefined)[21]!;
    const r = await run(["--base-url", sandbox.url, "ask", "-"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_FORCE_TTY: "1", NO_COLOR: "1" },
      input: `is ${token.symbol} up today?`,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("Sandbox answer");
    expect(r.stdout).toMatch(new RegExp(`TICKER\\s+NAME[\\s\\S]*${token.symbol.replace(/[$]/g, "\\$")}`));
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

  it("ask", async () => {
    const token = sandbox.data.list("base", undefined)[30]!;
    const q = ["ask", `price of ${token.symbol}`, "--chain", "base"];
    const ndjson = await cli([...q, "--ndjson"]);
    expect(ndjson.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect((JSON.parse(ndjson.stdout) as { tokenDetails: unknown[] }).tokenDetails).toHaveLength(1);
    const csv = await cli([...q, "-o", "csv", "--fields", "token_ticker,current_usd_price"]);
    expect(csv.stdout).toBe(
      `token_ticker,current_usd_price\n${token.symbol},${(sandbox.data.askDetail(token) as { current_usd_price: string }).current_usd_price}\n`,
    );
    const none = await cli(["ask", "hello there", "-o", "table"], { NO_COLOR: "1" });
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/found no token/);
    expect(none.stderr).toMatch(/No token details/);
  });
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
