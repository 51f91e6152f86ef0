import { describe, expect, it } from "vitest";
import { dropDollar, itemsFromText } from "../../../src/commands/data/lists.js";
import { runCommand, useStubServer } from "../harness.js";

// What --sort with --limit requests, and the checks that stop a run before any request, in-process
// against a stub server (behaviour against the sandbox is in lists-sort-fields-sandbox.test.ts).

const KEY = { TOKENINTEL_API_KEY: "sk_test_key_123456" };
const PAGES = 7;
const server = useStubServer();
let pagesServed: number[] = [];

// 7 pages of 2 records; the largest mcap is on the last page.
server.on("GET", "/v1/crypto-market/", (url) => {
  const page = Number(url.searchParams.get("page"));
  pagesServed.push(page);
  return {
    body: {
      success: true,
      data: [0, 1].map((i) => ({ id: `t${page}-${i}`, token_metrics: { mcap: String(page * 10 + i) } })),
      meta: { pagination: { page, pageSize: 2, pageCount: PAGES, total: PAGES * 2 } },
    },
  };
});

describe("--sort with --limit", () => {
  it("reads every page, cuts the sorted whole, and says what that cost", async () => {
    pagesServed = [];
    const r = await runCommand(
      [
        "market",
        "-c",
        "base",
        "--sort",
        "token_metrics.mcap:desc",
        "--limit",
        "2",
        "--json",
        "--fields",
        "id",
      ],
      { server, env: KEY },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: "t7-1" }, { id: "t7-0" }]);
    expect([...pagesServed].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(r.stderr).toBe(
      "tokenintel: --sort reads all 7 pages to find the top 2 (use --page or a smaller --max-pages to read fewer)\n",
    );
  });

  it("--quiet says nothing; without --sort, --limit still stops after the pages it needs", async () => {
    const quiet = await runCommand(
      ["--quiet", "market", "-c", "base", "--sort", "token_metrics.mcap", "--limit", "2", "--json"],
      { server, env: KEY },
    );
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    pagesServed = [];
    const plain = await runCommand(["market", "-c", "base", "--limit", "2", "--json"], { server, env: KEY });
    expect(plain.code).toBe(0);
    expect(pagesServed).toEqual([1]);
  });
});

describe("checks before any request", () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      "--sort on a section",
      ["market", "-c", "base", "--sort", "token_info"],
      /--sort: "token_info" is a section/,
    ],
    [
      "--sort typo",
      ["market", "-c", "base", "--sort", "usd_price"],
      /did you mean token_metrics\.usd_price\?/,
    ],
    [
      "unreadable list file",
      ["market", "-c", "base", "--tickers", "@/nonexistent/t.txt"],
      /--tickers: cannot read @\/nonexistent\/t\.txt: no such file or directory \(ENOENT\)/,
    ],
    ["empty stdin list", ["market", "-c", "base", "--ids", "-"], /--ids: standard input holds no items/],
    ["unknown ask field", ["ask", "hello", "--fields", "nope"], /--fields: unknown field "nope" for ask/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const r = await runCommand(args, { env: KEY });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.clients).toBe(0);
    });
  }

  it("--fields alone lists paths without a request", async () => {
    const r = await runCommand(["directory", "--fields"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("id\nsymbol\nname\naddress\nchain\necosystem\n");
    expect(r.clients).toBe(0);
  });
});

describe("list text", () => {
  it("one a line or comma-separated; blanks, spaces, a BOM and a trailing comma ignored", () => {
    expect(itemsFromText("--tickers", "f", "\uFEFFA\r\n\n B ,C,\nD\\,E,\n")).toEqual(["A", "B", "C", "D,E"]);
  });
  it("one $ is dropped from a ticker", () => {
    expect(["$AIXBT", "$$DOLLAR", "$", "PLAIN"].map(dropDollar)).toEqual(["AIXBT", "$DOLLAR", "$", "PLAIN"]);
  });
});
