import { describe, expect, it } from "vitest";
import { ChangeFilter, recordIdentity } from "../../src/commands/data/watch-changes.js";
import { describeChanges } from "../../src/commands/data/watch-diff.js";
import { fitFrame } from "../../src/commands/data/watch-screen.js";

const table = (n: number) =>
  ["SYMBOL", ...Array.from({ length: n }, (_, i) => `T${i + 1}`)].join("\n") + "\n";

describe("fitFrame", () => {
  it("shows everything, without a trailing newline, when it fits", () => {
    expect(fitFrame("status", table(3), 6)).toBe("status\n\nSYMBOL\nT1\nT2\nT3");
    expect(fitFrame("status", table(3), undefined)).toBe("status\n\nSYMBOL\nT1\nT2\nT3");
  });

  it("clips rows with … N more at one line too many, keeping status and headers", () => {
    expect(fitFrame("status", table(4), 6)).toBe("status\n\nSYMBOL\nT1\nT2\n… 2 more");
    expect(fitFrame("status", table(30), 12).split("\n")).toHaveLength(12);
    expect(fitFrame("status", table(30), 12).split("\n").at(-1)).toBe("… 22 more");
  });

  it("keeps the status line first on a terminal too small for anything else", () => {
    expect(fitFrame("status", table(5), 4)).toBe("status\n\nSYMBOL\n… 5 more");
    expect(fitFrame("status", table(5), 2)).toBe("status\n");
    expect(fitFrame("status", table(5), 1)).toBe("status");
  });
});

describe("--changes", () => {
  const rec = (id: string, price: string, extra = {}) => ({
    id,
    token_metrics: { usd_price: price },
    ...extra,
  });

  it("names a record by id, else chain and address, else symbol", () => {
    expect(recordIdentity({ id: "x", token_info: { ca: "0xa" } })).toBe("id:x");
    expect(recordIdentity({ token_info: { ca: "0xa", chain: "base" } })).toBe("ca:base:0xa");
    expect(recordIdentity({ symbol: "AERO" })).toBe("symbol:AERO");
    expect(recordIdentity({})).toBeUndefined();
  });

  it("passes everything first, then only new or changed records", () => {
    const filter = new ChangeFilter(undefined);
    expect(filter.next([rec("a", "1"), rec("b", "2")])).toHaveLength(2);
    expect(filter.next([rec("a", "1"), rec("b", "2")])).toEqual([]);
    expect(filter.next([rec("b", "2"), rec("a", "1.5"), rec("c", "3")])).toEqual([
      rec("a", "1.5"),
      rec("c", "3"),
    ]);
  });

  it("compares only the --fields chosen", () => {
    const filter = new ChangeFilter(["token_metrics.usd_price"]);
    filter.next([rec("a", "1", { note: "x" })]);
    expect(filter.next([rec("a", "1", { note: "y" })])).toEqual([]);
    expect(filter.next([rec("a", "2", { note: "y" })])).toHaveLength(1);
  });
});

describe("fitFrame with a footer (--diff's what-changed line)", () => {
  it("keeps the footer as the last line when the table is cut to fit", () => {
    const body = ["HEAD", "r1", "r2", "r3", "r4", "r5"].join("\n");
    const lines = fitFrame("status", body, 7, "what changed: A x 1→2").split("\n");
    expect(lines).toEqual(["status", "", "HEAD", "r1", "r2", "… 3 more", "what changed: A x 1→2"]);
  });

  it("follows the table when it fits", () => {
    expect(fitFrame("s", "H\nr1", 10, "what changed: …").split("\n")).toEqual([
      "s",
      "",
      "H",
      "r1",
      "what changed: …",
    ]);
  });
});

describe("describeChanges", () => {
  it("names a few changes, the rest as a count", () => {
    const at = "t";
    const c = (symbol: string, field: string | null, from: unknown, to: unknown) => ({
      at,
      id: null,
      symbol,
      field,
      from,
      to,
    });
    expect(
      describeChanges([
        c("A", "token_metrics.usd_price", "1", "2"),
        c("B", null, "absent", "present"),
        c("C", null, "present", "absent"),
        c("D", "x.n", 1, 2),
        c("E", "x.n", 1, 2),
      ]),
    ).toBe("what changed: A usd_price 1→2 · B entered · C left · D n 1→2 (+1 more)");
    expect(describeChanges([])).toBe("");
  });
});
