import { describe, expect, it } from "vitest";
import { runCommand, StubServer, useStubServer } from "../harness.js";

// Usage errors: exit 2, one line naming the flag, and no request made (no client was even asked
// for, and the stub server, which has no stubs, saw nothing).

const server = useStubServer();

const KEY = { TOKENINTEL_API_KEY: "sk_test_key_123456" };

describe("usage errors: exit 2 before any request", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["unknown chain", ["market", "--chain", "eth"], /--chain: unknown chain "eth"/],
    ["missing chain", ["market", "--tickers", "A"], /--chain is required/],
    ["page 0", ["market", "-c", "base", "--page", "0"], /--page: expected a whole number/],
    ["page abc", ["market", "-c", "base", "--page", "abc"], /--page: expected a whole number/],
    ["negative limit", ["market", "-c", "base", "--limit", "-5"], /--limit/],
    ["empty list item", ["market", "-c", "base", "--tickers", "A,,B"], /--tickers: empty item/],
    [
      "item over 200 characters",
      ["market", "-c", "base", "--tickers", "X".repeat(201)],
      /--tickers: item longer than 200/,
    ],
    ["unknown output format", ["market", "-c", "base", "-o", "xml"], /--output/],
    ["conflicting output flags", ["market", "-c", "base", "--json", "--ndjson"], /conflicting output flags/],
    [
      "unknown --fields path",
      ["market", "-c", "base", "--fields", "token_info.nope"],
      /--fields: unknown field "token_info.nope"/,
    ],
    [
      "two selector kinds",
      ["market", "-c", "base", "--tickers", "A", "--ids", "x"],
      /one of --tickers, --addresses, --ids/,
    ],
    [
      "--page with a long list",
      [
        "market",
        "-c",
        "base",
        "--page",
        "2",
        "--tickers",
        Array.from({ length: 31 }, (_, i) => `T${i}`).join(","),
      ],
      /--page cannot be combined/,
    ],
    ["unknown option", ["market", "-c", "base", "--frobnicate"], /unknown option '--frobnicate'/],
    [
      "bad timeout",
      ["--timeout", "soon", "market", "-c", "base"],
      /--timeout: expected a span such as 30s, 10m or 2h \(m is minutes\)/,
    ],
    [
      "bad timeout before a command that makes no request",
      ["--timeout", "soon", "config", "list"],
      /--timeout: expected a span such as 30s, 10m or 2h \(m is minutes\)/,
    ],
    // One grammar of durations; each flag refuses what makes no sense for it, saying why.
    [
      "history --since 6m (six minutes, for a daily history)",
      ["history", "-c", "base", "--tickers", "BAKO", "--since", "6m"],
      /^tokenintel: --since: "6m" is 6 minutes, and history is daily: for 6 months write 6mo$/m,
    ],
    [
      "history --since further back than any token's history",
      ["history", "-c", "base", "--tickers", "BAKO", "--since", "99999y"],
      /--since: "99999y" reaches back more than 20 years/,
    ],
    [
      "a date as a timeout",
      ["--timeout", "2026-01-01", "config", "list"],
      /--timeout: a date is a day, not a length/,
    ],
    ["a timeout over a day", ["--timeout", "2d", "market", "-c", "base"], /--timeout: too long: at most 24h/],
    ["a cache over a week", ["--cache", "2w", "market", "-c", "base"], /--cache: too long: at most 7d/],
    [
      "a watch interval that is a date",
      ["market", "-c", "base", "--watch", "2026-01-01"],
      /--watch: a date is a day/,
    ],
    [
      "concurrency over 32",
      ["--concurrency", "999", "config", "list"],
      /--concurrency: too large \(at most 32\)/,
    ],
    [
      "a base URL that is not a URL",
      ["--base-url", "not a url", "market", "-c", "base"],
      /--base-url: expected an http\(s\) URL/,
    ],
    ["unknown sort field", ["directory", "-c", "base", "--sort", "nope"], /--sort: unknown field "nope"/],
    ["unknown view", ["market", "-c", "base", "--view", "nope"], /--view: unknown view "nope"/],
    [
      "--watch into a pipe as CSV",
      ["market", "-c", "base", "--watch", "-o", "csv"],
      /--watch into a pipe writes NDJSON lines/,
    ],
    ["--count without --watch", ["market", "-c", "base", "--count", "2"], /--count needs --watch/],
    ["api with a bad method", ["api", "/v1/x", "-X", "DELETE"], /--method: expected GET or POST/],
    ["api --ndjson without --paginate", ["api", "/v1/x", "--ndjson"], /--ndjson goes with --paginate/],
    ["config set of an unknown key", ["config", "set", "colour", "x"], /unknown config key "colour"/],
    // A mistyped key gets a did-you-mean.
    [
      "config set of a mistyped key",
      ["config", "set", "chian", "base"],
      /^tokenintel: unknown config key "chian" \(did you mean chain\?\) \(known: /,
    ],
    ["config set of a bad chain", ["config", "set", "chain", "eth"], /chain: unknown chain "eth"/],
    ["payment caps without --pay", ["directory", "-c", "base", "--max-spend", "1"], /go with --pay/],
    [
      "a cap with 7 decimals",
      ["directory", "-c", "base", "--pay", "--max-spend", "0.0000001"],
      /--max-spend/,
    ],
    // A data command reads its flags a group at a time (commands/data/flag-groups.ts): the tokens,
    // paging, the format, the fields, payment, the view, --sort, --where, --watch.
    [
      "--watch with --page",
      ["market", "-c", "base", "--watch", "--page", "2"],
      /--watch cannot be combined with --page\n/,
    ],
    ["an empty --ecosystem", ["market", "-c", "base", "--ecosystem", " "], /--ecosystem: empty value\n/],
    ["--changes without --watch", ["market", "-c", "base", "--changes"], /--changes needs --watch\n/],
    ["--diff without --watch", ["market", "-c", "base", "--diff"], /--diff needs --watch\n/],
    // Two errors: the earlier group's is the one shown.
    ["no chain, two lists: the chain", ["market", "--tickers", "A", "--ids", "x"], /--chain is required/],
    [
      "two lists, --page 2: the lists",
      ["market", "-c", "base", "--tickers", "A", "--ids", "x", "--page", "2"],
      /use one of --tickers, --addresses, --ids at a time\n/,
    ],
    [
      "--page 2 with a list, two output flags: paging",
      ["market", "-c", "base", "--tickers", "A", "--page", "2", "--json", "--ndjson"],
      /--page 2: a list of tickers is answered in one page/,
    ],
    [
      "two output flags, a field that is no path: the format",
      ["market", "-c", "base", "--json", "--ndjson", "--fields", "a..b"],
      /conflicting output flags/,
    ],
    [
      "a field that is no path, a cap without --pay: the field",
      ["market", "-c", "base", "--fields", "a..b", "--max-spend", "1"],
      /--fields: unknown field "a\.\.b" for market/,
    ],
    [
      "a cap without --pay, a bad --sort: the payment",
      ["market", "-c", "base", "--max-spend", "1", "--sort", "x:sideways"],
      /go with --pay/,
    ],
    [
      "an unknown view, a bad --sort: the view",
      ["market", "-c", "base", "--view", "nope", "--sort", "x:sideways"],
      /--view: unknown view "nope"/,
    ],
    [
      "a bad --sort, a bad --where: the sort",
      ["market", "-c", "base", "--sort", "x:sideways", "--where", "nope"],
      /--sort: expected <field>\[:asc\|desc\]/,
    ],
    [
      "a bad --where, --watch into a pipe as CSV: the where",
      ["market", "-c", "base", "--where", "nope", "--watch", "-o", "csv"],
      /^tokenintel: --where: /,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const r = await runCommand(args, { server, env: KEY });
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^tokenintel: /);
      expect(r.clients).toBe(0);
    });
  }
});

describe("values are read without regard to case", () => {
  it("--chain BASE and -o JSON select base and json", async () => {
    const stub = await new StubServer().start();
    stub.on("GET", "/v1/crypto-market/", (url) => {
      expect(url.searchParams.get("chain")).toBe("base");
      return {
        body: {
          success: true,
          data: [],
          meta: { pagination: { page: 1, pageSize: 30, pageCount: 1, total: 0 } },
        },
      };
    });
    const r = await runCommand(["market", "--chain", "BASE", "-o", "JSON"], { server: stub, env: KEY });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("[]\n");
    stub.verify();
    await stub.close();
  });
});
