import { describe, expect, it } from "vitest";
import { recordSchemaFor } from "../../../src/api/schemas.js";
import { AWKWARD_SYMBOLS } from "../../../src/sandbox/data.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel market` run in-process through run() against the sandbox on a free port: every page of
// an ecosystem, --limit and --page, lists of tickers, addresses and ids in requests of at most 30,
// and the records the server repeats across pages dropped.

const { KEY, servers, sandbox, cli, cliAt, requestsTo } = useKeyedSandbox("market", { taStyle: "flat" });

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
