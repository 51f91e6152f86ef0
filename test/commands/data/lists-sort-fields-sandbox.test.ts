import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAGE_SIZES } from "../../../src/contract/api.js";
import type { TokenBase } from "../../../src/sandbox/tokens.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// Answers that are right (the real top n, LF CSV, --strict) and the conveniences around lists,
// --fields, --sort and table-only flags, in-process through run() against the sandbox. (ask --fields
// is in test/commands/ask/ask-fields.test.ts; a walk --max-spend stops, in
// test/commands/pay/max-spend.test.ts.)

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_secret`;
const dir = { path: useServers().folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const cli = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  run(["--base-url", sandbox.url, ...args], dir.path, {
    env: { TOKENINTEL_API_KEY: KEY, ...options.env },
    input: options.input,
  });

const base = () => sandbox.data.list("base", undefined);
const token = (symbol: string): TokenBase => {
  const t = base().find((x) => x.symbol === symbol);
  if (!t) throw new Error(`no sandbox token ${symbol}`);
  return t;
};
const mcap = (t: TokenBase) =>
  Number((sandbox.data.marketRecord(t) as { token_metrics: { mcap: string } }).token_metrics.mcap);

describe("--sort with --limit is the real top n", () => {
  const args = ["market", "-c", "base", "--sort", "token_metrics.mcap:desc", "--limit", "3"];
  const expected = () =>
    [...base()]
      .sort((a, b) => mcap(b) - mcap(a))
      .slice(0, 3)
      .map((t) => t.id);

  it("in json, ndjson, csv and table, and says what reading every page costs", async () => {
    const top = expected();
    // The top 3 are not the first 3 listed: the old answer (sort what the first page brought) differs.
    expect(top).not.toEqual([...base().slice(0, 3)].sort((a, b) => mcap(b) - mcap(a)).map((t) => t.id));
    const json = await cli([...args, "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as Array<{ id: string }>).map((r) => r.id)).toEqual(top);
    const pages = Math.ceil(base().length / PAGE_SIZES.market);
    expect(pages).toBeGreaterThan(5);
    expect(json.stderr).toContain(`tokenintel: --sort reads all ${pages} pages to find the top 3`);

    const nd = await cli([...args, "--ndjson"]);
    expect(
      nd.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(top);
    const csv = await cli([...args, "-o", "csv", "--fields", "id"]);
    expect(csv.stdout).toBe(`id\n${top.join("\n")}\n`);
    const table = await cli([...args, "-o", "table", "--columns", "id"]);
    expect(
      table.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.trim()),
    ).toEqual(top);
  });

  it("with --page, reads and sorts that page alone, and says so (not that it reads every page)", async () => {
    const before = sandbox.stats.byPath["/v1/crypto-market/"] ?? 0;
    const r = await cli([...args, "--page", "2", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect((sandbox.stats.byPath["/v1/crypto-market/"] ?? 0) - before).toBe(1);
    const page = base().slice(PAGE_SIZES.market, 2 * PAGE_SIZES.market);
    const top = [...page].sort((a, b) => mcap(b) - mcap(a)).slice(0, 3);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id)).toEqual(top.map((t) => t.id));
    const pages = Math.ceil(base().length / PAGE_SIZES.market);
    expect(r.stderr).not.toContain("reads all");
    expect(r.stderr).toContain(`--sort orders page 2 alone, not all ${pages} pages`);
  });

  it("--quiet leaves out the cost line", async () => {
    const r = await cli(["--quiet", ...args, "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });
});

describe("CSV lines end in LF; --crlf for spreadsheets", () => {
  it("awk-style matching of a field works on the default output", async () => {
    const args = ["directory", "-c", "base", "--limit", "5", "-o", "csv", "--fields", "symbol,ecosystem"];
    const lf = await cli(args);
    expect(lf.code).toBe(0);
    expect(lf.stdout).not.toContain("\r");
    const rows = lf.stdout.trimEnd().split("\n").slice(1);
    expect(rows).toHaveLength(5);
    // What `awk -F, '$2=="…"'` sees: the last field has no trailing \r.
    for (const [i, row] of rows.entries()) expect(row.split(",")[1]).toBe(base()[i]!.ecosystem);
    const crlf = await cli([...args, "--crlf"]);
    expect(crlf.stdout).toBe(lf.stdout.replace(/\n/g, "\r\n"));
  });
});

describe("--strict", () => {
  const args = ["market", "-c", "base", "--tickers", "AERO,NOSUCH1,DEGEN,NOSUCH2", "--json"];
  it("without it: the matches, a warning, exit 0", async () => {
    const r = await cli(args);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe("tokenintel: warning: no data for 2 of 4 tickers: NOSUCH1, NOSUCH2");
  });
  it("with it: the matches still printed, the missing named, exit 1", async () => {
    const r = await cli([...args, "--strict"]);
    expect(r.code).toBe(1);
    const symbols = (JSON.parse(r.stdout) as Array<{ token_info: { symbol: string } }>).map(
      (x) => x.token_info.symbol,
    );
    expect(symbols).toEqual(["AERO", "DEGEN"]);
    expect(r.stderr.trim()).toBe("tokenintel: no data for 2 of 4 tickers: NOSUCH1, NOSUCH2 (--strict)");
    const all = await cli(["market", "-c", "base", "--tickers", "AERO,DEGEN", "--json", "--strict"]);
    expect(all.code).toBe(0);
  });
});

describe("lists from a file and from stdin", () => {
  const symbols = (stdout: string) =>
    (JSON.parse(stdout) as Array<{ token_info: { symbol: string } }>).map((x) => x.token_info.symbol);

  it("--tickers @file: one a line or comma-separated, blank lines and a trailing comma ignored", async () => {
    const file = join(dir.path, "tickers.txt");
    writeFileSync(file, "VIRTUAL\n\nAIXBT, GAME,\r\n  \nAERO\n");
    const r = await cli(["market", "-c", "base", "--tickers", `@${file}`, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(symbols(r.stdout)).toEqual(["VIRTUAL", "AIXBT", "GAME", "AERO"]);
    expect(r.stderr).toBe("");
    // Mixed with typed items, in order.
    const mixed = await cli(["market", "-c", "base", "--tickers", `DEGEN,@${file}`, "--json"]);
    expect(symbols(mixed.stdout)).toEqual(["DEGEN", "VIRTUAL", "AIXBT", "GAME", "AERO"]);
  });

  it("--tickers -, --addresses - and --ids @file", async () => {
    const stdin = await cli(["market", "-c", "base", "--tickers", "-", "--json"], {
      input: "AERO,\nDEGEN\n",
    });
    expect(symbols(stdin.stdout)).toEqual(["AERO", "DEGEN"]);
    const addresses = await cli(["market", "-c", "base", "--addresses", "-", "--json"], {
      input: `${token("GAME").address}\n${token("BRETT").address}\n`,
    });
    expect(symbols(addresses.stdout)).toEqual(["GAME", "BRETT"]);
    const file = join(dir.path, "ids.txt");
    writeFileSync(file, `${token("LUNA").id},${token("BAKO").id},`);
    const ids = await cli(["market", "-c", "base", "--ids", `@${file}`, "--json"]);
    expect(symbols(ids.stdout)).toEqual(["LUNA", "BAKO"]);
  });

  it("a file that cannot be read, or holds nothing, is a usage error", async () => {
    const missing = await cli(["market", "-c", "base", "--tickers", "@/nonexistent/list.txt"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(
      "tokenintel: --tickers: cannot read @/nonexistent/list.txt: no such file or directory (ENOENT)",
    );
    const empty = await cli(["market", "-c", "base", "--tickers", "-"], { input: "\n\n" });
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim()).toBe("tokenintel: --tickers: standard input holds no items");
  });
});

describe("the order given", () => {
  it("--tickers comes back in the order given, with --page too", async () => {
    // Three tokens the service lists in another order than the one asked.
    const symbols = base()
      .slice(0, 3)
      .map((t) => t.symbol)
      .reverse();
    for (const extra of [[], ["--page", "1"]]) {
      const r = await cli(["market", "-c", "base", "--tickers", symbols.join(","), ...extra, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const got = (JSON.parse(r.stdout) as Array<{ token_info: { symbol: string } }>).map(
        (x) => x.token_info.symbol,
      );
      expect(got, extra.join(" ")).toEqual(symbols);
    }
  });
});

describe("$ before a ticker; values in any case", () => {
  it("'$AERO,$DEGEN' asks for AERO and DEGEN", async () => {
    const r = await cli(["market", "-c", "base", "--tickers", "$AERO,$DEGEN", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(
      (JSON.parse(r.stdout) as Array<{ token_info: { symbol: string } }>).map((x) => x.token_info.symbol),
    ).toEqual(["AERO", "DEGEN"]);
    expect(r.stderr).toBe("");
  });

  it("--chain BASE, -o JSON, --view RISK, --color NEVER", async () => {
    const upper = await cli([
      "--color",
      "NEVER",
      "market",
      "--chain",
      "BASE",
      "--tickers",
      "AERO",
      "-o",
      "JSON",
    ]);
    expect(upper.code, upper.stderr).toBe(0);
    expect(JSON.parse(upper.stdout)).toHaveLength(1);
    const solana = await cli(["market", "--chain", "Solana", "--limit", "1", "--json"]);
    expect(solana.code, solana.stderr).toBe(0);
    expect((JSON.parse(solana.stdout) as Array<{ token_info: { chain: string } }>)[0]!.token_info.chain).toBe(
      "solana",
    );
    const view = await cli(["market", "-c", "base", "--tickers", "AERO", "--view", "RISK", "-o", "Table"]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain("AERO");
  });
});

describe("--fields alone, --sort suggestions, sections, rug_status", () => {
  it("--fields alone lists the command's dot paths on stdout", async () => {
    const market = await cli(["market", "--fields"]);
    expect(market.code).toBe(0);
    const paths = market.stdout.trim().split("\n");
    expect(paths).toContain("token_info.symbol");
    expect(paths).toContain("token_metrics.mcap");
    const agents = await cli(["agents", "--fields"]);
    expect(agents.stdout.split("\n")).toContain("agent_metrics.mcap");
    expect(agents.stdout.split("\n")).not.toContain("token_metrics.mcap");
    const ask = await cli(["ask", "--fields"]);
    expect(ask.stdout.split("\n").slice(0, 5)).toEqual([
      "questionId",
      "answerId",
      "nlpResponse",
      "tokenDetails",
      "token_ticker",
    ]);
  });

  it("a --sort typo suggests paths; a section is refused", async () => {
    const typo = await cli(["agents", "-c", "base", "--sort", "token_metrics.mcap"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'tokenintel: --sort: unknown field "token_metrics.mcap" for agents (did you mean agent_metrics.mcap?)',
    );
    const section = await cli(["market", "-c", "base", "--sort", "token_metrics:desc"]);
    expect(section.code).toBe(2);
    expect(section.stderr.trim()).toMatch(/^tokenintel: --sort: "token_metrics" is a section, not a value/);
  });

  it("rug_status sorts by severity, not by name", async () => {
    const order = async (dir: string) => {
      const r = await cli([
        "agents",
        "-c",
        "base",
        "--sort",
        `rug_status:${dir}`,
        "--fields",
        "rug_status",
        "--json",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const statuses = (JSON.parse(r.stdout) as Array<{ rug_status: string }>).map((x) => x.rug_status);
      return [...new Set(statuses)];
    };
    expect(await order("desc")).toEqual(["HIGH_RISK", "CAUTION", "SAFE"]);
    expect(await order("asc")).toEqual(["SAFE", "CAUTION", "HIGH_RISK"]);
  });
});

describe("table-only flags with other formats", () => {
  it("one warning line naming the flags given; none for a table", async () => {
    const args = ["market", "-c", "base", "--tickers", "AERO"];
    const json = await cli([...args, "--view", "risk", "--wide", "--json"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe(
      "tokenintel: warning: --view, --wide only shape the table; not applied to -o json (--fields picks what every format shows)\n",
    );
    const csv = await cli([...args, "--columns", "id", "-o", "csv"]);
    expect(csv.stderr).toBe(
      "tokenintel: warning: --columns only shapes the table; not applied to -o csv (--fields picks what every format shows)\n",
    );
    const table = await cli([...args, "--view", "risk", "--wide", "-o", "table"]);
    expect(table.stderr).toBe("");
    const ask = await cli(["ask", "how is $BAKO doing", "--wide", "--ndjson"]);
    expect(ask.code).toBe(0);
    expect(ask.stderr).toBe(
      "tokenintel: warning: --wide only shapes the table; not applied to -o ndjson (--fields picks what every format shows)\n",
    );
  });
});
