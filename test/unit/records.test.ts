import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/client.js";
import { chunk, orderBySelector, selectorKey } from "../../src/api/list-walk.js";
import { streamRecords } from "../../src/api/records.js";

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

/** A client that answers each request 200 with the body made from its query parameters. */
function answering(body: (param: (name: string) => unknown) => unknown): ApiClient {
  return {
    request: async (_path: string, opts: { query?: Array<[string, unknown]> }) => {
      const param = (name: string) => opts.query?.find(([k]) => k === name)?.[1];
      return { status: 200, headers: {}, text: "", url: "", body: body(param) };
    },
  } as unknown as ApiClient;
}

describe("streamRecords: repeats across and within pages, one set of ids", () => {
  /** A client whose pages hold these ids (a page count tells how many). */
  function client(pages: string[][]) {
    return answering((param) => {
      const n = Number(param("page"));
      const ids = pages[n - 1] ?? [];
      return {
        success: true,
        data: ids.map((id, i) => ({ id: id || undefined, symbol: `S${n}-${i}` })),
        meta: { pagination: { page: n, pageSize: 4, pageCount: pages.length, total: 99 } },
      };
    });
  }
  const endpoint = { path: "/x", kind: "directory" as const, pageSize: 4 };

  async function symbols(pages: string[][], limit?: number, prefetch?: boolean) {
    const out: string[] = [];
    for await (const batch of streamRecords(client(pages), {
      endpoint,
      query: [],
      window: 2,
      limit,
      prefetch,
    }))
      for (const r of batch) out.push((r as { symbol: string }).symbol);
    return out;
  }

  it("drops every record whose id came before, keeps records without one", async () => {
    const pages = [
      ["a", "b", "a", ""],
      ["c", "b", "", "d"],
      ["e", "a", "f", "g"],
    ];
    for (const prefetch of [false, true]) {
      expect(await symbols(pages, undefined, prefetch)).toEqual([
        "S1-0",
        "S1-1",
        "S1-3",
        "S2-0",
        "S2-2",
        "S2-3",
        "S3-0",
        "S3-2",
        "S3-3",
      ]);
      expect(await symbols(pages, 5, prefetch)).toEqual(["S1-0", "S1-1", "S1-3", "S2-0", "S2-2"]);
    }
  });
});

describe("streamRecords: a selector list in chunks of 30", () => {
  /** One unpaged request per chunk: a record for each item the server knows, in reverse order. */
  function client(requests: string[][]) {
    return answering((param) => {
      const items = param("tickers") as string[];
      requests.push(items);
      const known = items.filter((item) => !item.startsWith("none"));
      return {
        success: true,
        data: known.reverse().map((item) => ({ id: item.toLowerCase(), symbol: item })),
      };
    });
  }
  const endpoint = { path: "/x", kind: "directory" as const, pageSize: 0, paged: false };

  async function walk(items: string[], limit?: number) {
    const requests: string[][] = [];
    const result = { missing: [] as string[] };
    const out: string[] = [];
    const selector = { param: "tickers", kind: "ticker" as const, items };
    for await (const batch of streamRecords(
      client(requests),
      { endpoint, query: [], window: 2, selector, limit },
      result,
    ))
      for (const r of batch) out.push((r as { symbol: string }).symbol);
    return { out, missing: result.missing, requests: requests.map((r) => r.length) };
  }

  // 35 items: T0..T29 in the first request, T0 (again), T30..T32 and none1 in the second.
  const items = [...Array.from({ length: 30 }, (_, i) => `T${i}`), "T0", "T30", "T31", "none1", "T32"];

  it("keeps the user's order, drops a record a chunk before delivered, names the items no record matched", async () => {
    const { out, missing, requests } = await walk(items);
    expect(requests).toEqual([30, 5]);
    expect(out).toEqual([...Array.from({ length: 30 }, (_, i) => `T${i}`), "T30", "T31", "T32"]);
    expect(missing).toEqual(["none1"]);
  });

  it("stops at the limit, and then names nothing missing", async () => {
    const { out, missing } = await walk(items, 31);
    expect(out).toEqual([...Array.from({ length: 30 }, (_, i) => `T${i}`), "T30"]);
    expect(missing).toEqual([]);
  });
});
