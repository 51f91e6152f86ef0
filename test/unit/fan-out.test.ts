import { describe, expect, it } from "vitest";
import { unanswered, unitsOf } from "../../src/api/list-walk.js";
import { readPage } from "../../src/api/pager.js";
import type { RecordQuery } from "../../src/api/records.js";
import { fanOutQuery, fanOutValues } from "../../src/commands/data/fan-out.js";
import { estimateRequests } from "../../src/commands/data/run.js";
import { recordIdentity } from "../../src/commands/data/watch-changes.js";
import type { FanOut } from "../../src/contract/endpoints.js";
import { UsageError } from "../../src/errors.js";
import { parseJson } from "../../src/json/exact.js";
import { multiplyDecimal } from "../../src/numbers/decimal.js";

// The engine's features for an endpoint asked value by value (a registry entry's fanOut) and one
// whose answer is one record: the requests a list makes, what no record answered, the values a
// flag names and the path of each, the count a payment is checked against, exact products.

const FAN: FanOut = {
  param: "dex",
  noun: "venue",
  values: ["a", "b", "c"],
  default: "a",
  olderPathServes: ["a"],
};
const spec = {
  endpoint: { path: "/v1/old", kind: "any" as const, pageSize: 0, paged: false },
  newerPath: "/v1/new",
  fanOut: FAN,
};
const query = (items: string[], perRequest: number, values: string[] | undefined): RecordQuery => ({
  endpoint: spec.endpoint,
  query: [],
  selector: { kind: "ticker", param: "t", items, perRequest },
  window: 4,
  fanOut: values && fanOutQuery(spec, values, "older"),
});

describe("a fan-out", () => {
  it("crosses each request of the list with each value, the list's order first", () => {
    const q = query(["X", "Y"], 1, ["c", "a"]);
    expect(unitsOf(q, q.selector!).map((u) => `${u.items.join()}@${u.fan?.value}:${u.fan?.path}`)).toEqual([
      "X@c:/v1/new",
      "X@a:/v1/old",
      "Y@c:/v1/new",
      "Y@a:/v1/old",
    ]);
    const long = query(["1", "2", "3", "4", "5"], 2, undefined);
    expect(unitsOf(long, long.selector!).map((u) => u.items)).toEqual([["1", "2"], ["3", "4"], ["5"]]);
  });

  it("names the values a flag gives, in its order, each once; all; the default; refuses another", () => {
    expect(fanOutValues(FAN, undefined)).toEqual(["a"]);
    expect(fanOutValues(FAN, ["C", "a", "c"])).toEqual(["c", "a"]);
    expect(fanOutValues(FAN, ["b", "ALL"])).toEqual(["a", "b", "c"]);
    expect(() => fanOutValues(FAN, ["a", "z"])).toThrow(
      new UsageError('--dex: unknown venue "z" (expected a, b, c, or all)'),
    );
    // Under the newer generation every value is asked at the newer path.
    expect(fanOutQuery(spec, ["a", "b"], "newer")!.values.map((v) => v.path)).toEqual(["/v1/new", "/v1/new"]);
  });

  it("counts tickers × values before the first request, exactly for an endpoint that does not page", () => {
    expect(estimateRequests(query(["X", "Y", "Z"], 1, ["a", "b"]))).toEqual({ requests: 6, exact: true });
    expect(estimateRequests(query(["X"], 1, ["a", "b", "c"]))).toEqual({ requests: 3, exact: true });
    expect(estimateRequests(query(["1", "2", "3"], 30, undefined))).toEqual({ requests: 1, exact: true });
  });

  it("tells the items no value answered from those some values did not", () => {
    const q = query(["X", "Y", "Z"], 1, ["a", "b"]);
    const matched = new Set(["a\u0000x", "b\u0000x", "b\u0000y"]);
    expect(unanswered(q, ["X", "Y", "Z"], matched)).toEqual({
      missing: ["Z"],
      missingOn: [{ item: "Y", values: ["a"] }],
    });
    expect(unanswered(query(["X", "Y"], 1, undefined), ["X", "Y"], new Set(["y"])).missing).toEqual(["X"]);
  });

  it("a record's identity across refreshes includes the value it was asked with", () => {
    const record = { dex: "b", symbol: "ETH/USDC:USDC" };
    expect(recordIdentity(record, "dex")).toBe("dex=b:symbol:ETH/USDC:USDC");
    expect(recordIdentity(record)).toBe("symbol:ETH/USDC:USDC");
  });
});

describe("an answer that is one record", () => {
  it("is read as a list of one; null as none; a list as any page's", () => {
    const kind = "smart-money" as const;
    expect(readPage({ success: true, data: { symbol: "ETH" } }, kind, 1, 200, true).records).toEqual([
      { symbol: "ETH" },
    ]);
    expect(() =>
      readPage({ success: true, data: { symbol: "ETH", net_inflow: 5 } }, kind, 1, 200, true),
    ).toThrow(/data\[0\]\.net_inflow/);
    expect(readPage({ success: true, data: null }, kind, 1, 200, true).records).toEqual([]);
    expect(readPage({ success: true, data: [{ a: 1 }, { a: 2 }] }, kind, 1, 200, true).records).toHaveLength(
      2,
    );
    expect(() => readPage({ success: true, data: "ETH" }, kind, 1, 200, true)).toThrow(/data\[0\]/);
    // Without the entry's word, one record is no page.
    expect(() => readPage({ success: true, data: { symbol: "ETH" } }, kind, 1)).toThrow(/data is not a list/);
  });
});

describe("multiplyDecimal", () => {
  it("multiplies by a whole number from the digits", () => {
    expect(multiplyDecimal("0.000013", 876000n)).toBe("11.388");
    expect(multiplyDecimal(-0.079192, 100n)).toBe("-7.9192");
    expect(multiplyDecimal(parseJson("0.00001300000000000000000001"), 8760n)).toBe(
      "0.1138800000000000000000876",
    );
    expect(multiplyDecimal("1e-30", 100n)).toBe("0.0000000000000000000000000001");
    expect(multiplyDecimal("-0.000", 5n)).toBe("0");
    expect(multiplyDecimal("2.5", -2n)).toBe("-5");
    expect(multiplyDecimal("n/a", 2n)).toBeUndefined();
  });
});
