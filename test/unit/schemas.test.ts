import { describe, expect, it } from "vitest";
import { readPage } from "../../src/api/pager.js";
import { askDataSchema, recordSchemaFor } from "../../src/api/schemas.js";
import { parseJson } from "../../src/json/exact.js";
import { SandboxData } from "../../src/sandbox/data.js";

// The same schemas that read the API's answers hold the sandbox to the spec.
const data = new SandboxData();
const tokens = [...data.list("base", undefined).slice(0, 60), ...data.list("solana", undefined).slice(0, 30)];

describe("the sandbox follows the spec (strict schemas)", () => {
  it("market, agents, ta and directory records", () => {
    for (const t of tokens) {
      for (const [kind, record] of [
        ["market", data.marketRecord(t)],
        ["agents", data.agentRecord(t)],
        ["ta", data.taRecord(t)],
        ["ta", data.taRecordDocumented(t)],
        ["directory", data.directoryRecord(t)],
      ] as const) {
        const result = recordSchemaFor(kind, "strict").safeParse(record);
        expect(result.success, `${kind} ${t.symbol}: ${result.error?.message}`).toBe(true);
      }
    }
  });
  it("has the nulls and absent sections the spec describes", () => {
    const records = tokens.map((t) => data.marketRecord(t) as Record<string, Record<string, unknown>>);
    expect(records.some((r) => !("token_holder_insights" in r))).toBe(true);
    expect(records.some((r) => r.token_metrics!.total_supply === null)).toBe(true);
    expect(records.some((r) => r.dev_wallet_insights?.wallet_balance === null)).toBe(true);
    expect(records.some((r) => r.token_info!.handle === null && r.token_info!.description === null)).toBe(
      true,
    );
  });
  it("ask details", () => {
    const detail = data.askDetail(tokens[0]!);
    expect(
      askDataSchema("strict").safeParse({
        questionId: "q",
        answerId: "a",
        nlpResponse: "x",
        tokenDetails: [detail],
      }).success,
    ).toBe(true);
  });
  it("a third of the tokens are in virtuals", () => {
    const base = data.list("base", undefined);
    expect(base).toHaveLength(1000);
    expect(data.list("solana", undefined)).toHaveLength(300);
    expect(data.list("base", "virtuals").length).toBe(Math.ceil(1000 / 3));
  });
});

describe("the client reads a drifting service leniently", () => {
  it("accepts numbers for strings, nulls anywhere, missing sections and unknown fields", () => {
    const body = parseJson(
      '{"success":true,"data":[{"id":"a","token_info":null,"token_metrics":{"usd_price":0.5,"mcap":null,"new_field":1},"brand_new":{"x":1}}]}',
    );
    const page = readPage(body, "market", 1);
    expect(page.records).toEqual([
      {
        id: "a",
        token_info: null,
        token_metrics: { usd_price: 0.5, mcap: null, new_field: 1 },
        brand_new: { x: 1 },
      },
    ]);
  });
  it("rejects a record that is not an object, data that is not a list, and success: false", () => {
    expect(() => readPage({ success: true, data: ["ABC"] }, "market", 1)).toThrow(/data\[0\]/);
    expect(() => readPage({ success: true, data: { a: 1 } }, "market", 1)).toThrow(/data is not a list/);
    expect(() => readPage({ success: false, message: "quota" }, "market", 1)).toThrow(
      /reported a failure: quota/,
    );
    expect(() => readPage({ success: true, data: [{ id: "a", token_metrics: "1.5" }] }, "market", 1)).toThrow(
      /data\[0\]\.token_metrics: /,
    );
  });
  it("reads a record keyed token_id, or with no id at all (live-notes: the documented TA shape)", () => {
    const page = readPage(
      { data: [{ token_id: "t1", technical_indicators: { rsi_1h: 55 } }, { token_symbol: "X" }] },
      "ta",
      1,
    );
    expect(page.records).toHaveLength(2);
  });
});
