import { describe, expect, it } from "vitest";
import { chunk, orderBySelector, selectorKey } from "../../src/api/records.js";

describe("chunk", () => {
  it("splits 75 items into 30, 30, 15 in order", () => {
    const items = Array.from({ length: 75 }, (_, i) => String(i));
    const chunks = chunk(items);
    expect(chunks.map((c) => c.length)).toEqual([30, 30, 15]);
    expect(chunks.flat()).toEqual(items);
  });
  it("edge sizes", () => {
    expect(chunk([])).toEqual([]);
    expect(chunk(Array(30).fill("x"))).toHaveLength(1);
    expect(chunk(Array(31).fill("x"))).toHaveLength(2);
  });
});

describe("orderBySelector", () => {
  const rec = (symbol: string, id = symbol) => ({ id, token_info: { symbol, ca: `0x${id}` } });
  it("orders by the position of the item, case-insensitively; unmatched last in server order", () => {
    const records = [rec("b"), rec("ZZ"), rec("A"), rec("c"), rec("YY")];
    const ordered = orderBySelector(records, ["C", "a", "B"], "ticker");
    expect(ordered.map((r) => (r as { id: string }).id)).toEqual(["c", "A", "b", "ZZ", "YY"]);
  });
  it("keeps several records of one ticker together in server order", () => {
    const records = [rec("X", "x2"), rec("Y", "y1"), rec("X", "x1")];
    expect(orderBySelector(records, ["Y", "X"], "ticker").map((r) => (r as { id: string }).id)).toEqual([
      "y1",
      "x2",
      "x1",
    ]);
  });
  it("reads keys from market, agent and directory records", () => {
    expect(selectorKey({ agent_info: { symbol: "AG" } }, "ticker")).toBe("ag");
    expect(selectorKey({ address: "0xABC" }, "address")).toBe("0xabc");
    expect(selectorKey({ id: 5 }, "id")).toBe("5");
    expect(selectorKey(null, "id")).toBeUndefined();
  });
});
