import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand, StubServer } from "./harness.js";

// parseDataOptions reads its flags a group at a time (commands/data/flag-groups.ts): the tokens,
// paging, the fields, payment, the view, --sort, --where, --watch. The usage errors no other test
// names, and which error a run with two of them shows (the order of the groups). Each is exit 2,
// one line, before any request.

let server: StubServer;
beforeAll(async () => {
  server = await new StubServer().start();
});
afterAll(async () => {
  server.verify();
  await server.close();
});

const KEY = { TOKENINTEL_API_KEY: "sk_test_key_123456" };

describe("data command flags, group by group", () => {
  const cases: Array<[string, string[], RegExp]> = [
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
      "two lists, --page with a long list: the lists",
      ["market", "-c", "base", "--tickers", "A", "--ids", "x", "--page", "2"],
      /use one of --tickers, --addresses, --ids at a time\n/,
    ],
    [
      "--page 2 with a list, two output flags: paging",
      ["market", "-c", "base", "--tickers", "A", "--page", "2", "--json", "--ndjson"],
      /--page 2: a list of tickers is answered in one page/,
    ],
    [
      "two output flags, an unknown field: the format",
      ["market", "-c", "base", "--json", "--ndjson", "--fields", "nope"],
      /conflicting output flags/,
    ],
    [
      "an unknown field, a cap without --pay: the field",
      ["market", "-c", "base", "--fields", "nope", "--max-spend", "1"],
      /--fields: unknown field "nope"/,
    ],
    [
      "a cap without --pay, an unknown sort field: the payment",
      ["market", "-c", "base", "--max-spend", "1", "--sort", "nope"],
      /go with --pay/,
    ],
    [
      "an unknown view, an unknown sort field: the view",
      ["market", "-c", "base", "--view", "nope", "--sort", "nope"],
      /--view: unknown view "nope"/,
    ],
    [
      "an unknown sort field, a bad --where: the sort",
      ["market", "-c", "base", "--sort", "nope", "--where", "nope>1"],
      /--sort: unknown field "nope"/,
    ],
    [
      "a bad --where, --watch into a pipe as CSV: the where",
      ["market", "-c", "base", "--where", "nope>1", "--watch", "-o", "csv"],
      /--where/,
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
