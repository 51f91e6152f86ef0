import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { MARKET } from "../../src/commands/market/definition.js";
import { TA } from "../../src/commands/ta/definition.js";
import { IO } from "../../src/io.js";
import { LosslessNumber } from "../../src/json/exact.js";
import { type Column, formatCell } from "../../src/output/columns.js";
import { riskFlags } from "../../src/output/risk.js";

const MARKET_COLUMNS = MARKET.table.views as Record<"overview", { columns: Column[] }>;
const taColumns = TA.table.views.change!.columns as (records: unknown[]) => Column[];

import { formatTime } from "../../src/output/format.js";
import { renderMarkdown } from "../../src/output/markdown.js";
import { renderTable } from "../../src/output/table.js";
import { displayWidth } from "../../src/output/width.js";
import { compareValues, sortRecords } from "../../src/query/records.js";

const ctx = { relativeTime: true, now: Date.parse("2026-11-21T12:00:00.000Z") };

import { PassThrough } from "node:stream";

const io = (columns = 100, color = false) =>
  new IO({
    stdout: Object.assign(new PassThrough(), { isTTY: true, columns }),
    stderr: new PassThrough(),
    env: color ? { FORCE_COLOR: "1" } : { NO_COLOR: "1" },
  });

describe("cells", () => {
  const c = (format: Column["format"]): Column => ({ header: "X", paths: ["v"], format });
  const cell = (format: Column["format"], v: unknown) => formatCell({ v }, c(format), ctx);
  it("edge values: 0, negative, 1e-12, 1e15, null, huge strings, wide characters", () => {
    expect(cell("price", "0").text).toBe("0");
    expect(cell("price", "-0.5").text).toBe("-0.5");
    expect(cell("price", 1e-12).text).toBe("0.0₁₁1000");
    expect(cell("usd", 1e15).text).toBe("$1000.00T");
    expect(cell("percent", null).text).toBe("-");
    expect(cell("text", "x".repeat(10_000)).text).toHaveLength(10_000);
    expect(cell("text", "トークン").text).toBe("トークン");
    expect(cell("price", new LosslessNumber("0.000000000000000000001234")).text).toBe("0.0₂₀1234");
  });
  it("percentages carry a tone; RSI is flagged overbought and oversold; booleans are marks", () => {
    expect(cell("percent", "1.5")).toEqual({ text: "+1.50%", tone: "up" });
    expect(cell("percent", "-1.5")).toEqual({ text: "-1.50%", tone: "down" });
    expect(cell("percent", "0")).toEqual({ text: "0.00%", tone: undefined });
    expect(cell("rsi", "70.01")).toEqual({ text: "70.0 OB", tone: "bad" });
    expect(cell("rsi", "70")).toEqual({ text: "70.0" });
    expect(cell("rsi", "29.9")).toEqual({ text: "29.9 OS", tone: "good" });
    expect(cell("bool", true).text).toBe("✓");
    expect(cell("bool", false).text).toBe("✗");
    expect(cell("bool", null).text).toBe("-");
  });
  it("times are relative on a terminal and ISO when piped", () => {
    expect(formatTime("2026-11-21T11:57:00.000Z", ctx)).toBe("3m ago");
    expect(formatTime("2026-11-19T12:00:00.000Z", ctx)).toBe("2d ago");
    expect(formatTime("2026-11-21T12:00:02.000Z", ctx)).toBe("just now");
    expect(formatTime("2026-11-21T11:57:00.000Z", { ...ctx, relativeTime: false })).toBe(
      "2026-11-21T11:57:00.000Z",
    );
    expect(formatTime("not a time", ctx)).toBe("not a time");
  });
  it("risk flags name what is wrong", () => {
    const record = {
      dev_wallet_insights: {
        dev_sold: true,
        dev_sold_percentage: "45.2",
        bundle_wallet_supply_percentage: "12.4",
        fresh_wallet: true,
      },
      token_holder_insights: { top_10_holder_percentage: "63.1" },
    };
    expect(riskFlags(record)).toEqual({ text: "DEV SOLD 45% BUNDLED 12% TOP10 63% FRESH DEV", tone: "bad" });
    expect(riskFlags({}).text).toBe("-");
  });
  it("the TA grid has only the intervals some record carries", () => {
    const headers = taColumns([{ price_change_percentage_1m: "1" }, { price_change_percentage_1d: "2" }]).map(
      (c) => c.header,
    );
    expect(headers).toEqual(["SYMBOL", "1m", "1d", "RSI"]);
  });
});

describe("tables", () => {
  const records = [
    {
      id: "a",
      token_info: { symbol: "AAA", name: "トークン Alpha Protocol Long Name" },
      token_metrics: { usd_price: "1234.5", price_change_percentage_24h: "3.2" },
    },
    {
      id: "b",
      token_info: { symbol: "BB", name: "Beta" },
      token_metrics: { usd_price: "0.0000001234", price_change_percentage_24h: "-12.25" },
    },
  ];
  const columns = MARKET_COLUMNS.overview.columns;
  it("align numbers on the decimal point", () => {
    const text = renderTable(records, columns, io()).text.split("\n");
    // The display column of the price's decimal point (the name has wide characters).
    const price = (line: string) => displayWidth(line.slice(0, line.indexOf(".", line.search(/\d/))));
    expect(price(text[1]!)).toBe(price(text[2]!));
  });
  it("fit a narrow terminal: names shrink with an ellipsis (never mid-character), then columns drop", () => {
    for (const width of [100, 80, 60, 40]) {
      const t = renderTable(records, columns, io(width), { width });
      for (const line of t.text.trimEnd().split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(t.text).not.toContain("\uFFFD");
    }
    expect(renderTable(records, columns, io(60), { width: 60 }).hidden).toBeGreaterThan(0);
    expect(renderTable(records, columns, io(200), { width: 200 }).text).toContain("トークン Alpha Protocol");
  });
  it("colour only when colour is on, and highlight the cells asked for", () => {
    expect(renderTable(records, columns, io(100, false)).text).not.toMatch(/\x1b\[/);
    const colored = renderTable(records, columns, io(100, true));
    expect(colored.text).toMatch(/\x1b\[32m\s*\+3\.20%/);
    const key = [...colored.cells.keys()].find((k) => k.startsWith("b\u0000PRICE"))!;
    expect(renderTable(records, columns, io(100, true), { highlight: new Set([key]) }).text).toContain(
      "\x1b[7m",
    );
  });
});

describe("sort", () => {
  it("compares decimals exactly, beyond what a double holds", () => {
    expect(compareValues("0.10000000000000000001", "0.1")).toBeGreaterThan(0);
    expect(compareValues("-2", "-10")).toBeGreaterThan(0);
    expect(compareValues("100", 99.5)).toBeGreaterThan(0);
    expect(
      compareValues(new LosslessNumber("123456789012345678901"), new LosslessNumber("123456789012345678900")),
    ).toBeGreaterThan(0);
    expect(compareValues("0.0", "-0")).toBe(0);
  });
  it("puts records without the field last, in both directions, and is stable", () => {
    const rs = [{ v: "2" }, { v: null }, { v: "10" }, { x: 1 }, { v: "2", tag: "second" }];
    expect(sortRecords(rs, { path: "v", descending: false })).toEqual([
      { v: "2" },
      { v: "2", tag: "second" },
      { v: "10" },
      { v: null },
      { x: 1 },
    ]);
    expect(sortRecords(rs, { path: "v", descending: true })).toEqual([
      { v: "10" },
      { v: "2" },
      { v: "2", tag: "second" },
      { v: null },
      { x: 1 },
    ]);
  });
});

describe("markdown", () => {
  const chalk = new Chalk({ level: 1 });
  it("renders headings, bold, lists and links, and removes the markup", () => {
    const out = renderMarkdown(
      "## Title\n\n**bold** and *it*\n- one\n1. first\n[site](https://x.example)\n`code`",
      chalk,
    );
    expect(out).toContain("\x1b[1m\x1b[4mTitle");
    expect(out).toContain("\x1b[1mbold\x1b[22m");
    expect(out).toContain("  • one");
    expect(out).toContain("  1. first");
    expect(out).toMatch(/\x1b\[4msite\x1b\[24m \x1b\[2m\(https:\/\/x\.example\)/);
    expect(out).not.toMatch(/##|\*\*|`/);
  });
  it("at a width, breaks between words only: a word wider than the line stands alone, numbers whole", () => {
    const plain = new Chalk({ level: 0 });
    const out = renderMarkdown(
      "- price $0.000000012345678901234567890123456789 then 1,234,567.89 and -12.5% here\nhttps://example.com/a/very/long/path/that/never/fits",
      plain,
      20,
    );
    expect(out.split("\n")).toEqual([
      "  • price",
      "    $0.000000012345678901234567890123456789",
      "    then",
      "    1,234,567.89 and",
      "    -12.5% here",
      "https://example.com/a/very/long/path/that/never/fits",
      "",
    ]);
    // Without a width (piped), a line is left whole.
    expect(renderMarkdown("a b c d e f g h i j k l m n o p q r s t u v", plain)).toBe(
      "a b c d e f g h i j k l m n o p q r s t u v\n",
    );
  });
  it("a style open where a line breaks is closed there and opened again after the indent", () => {
    const out = renderMarkdown("- **bold words that wrap** end", chalk, 14);
    expect(out.split("\n")).toEqual([
      "  • \x1b[1mbold words\x1b[0m",
      "    \x1b[1mthat wrap\x1b[22m",
      "    end",
      "",
    ]);
  });
  it("a server's indentation or length cannot blow the text up or stop it: indents kept to 8, any number of lines", () => {
    const plain = new Chalk({ level: 0 });
    // 2,000 spaces before a bullet: kept whole, every wrapped line repeated them, one word a line.
    const deep = renderMarkdown(`${" ".repeat(2000)}- ${"a ".repeat(20_000)}`, plain, 80);
    const lines = deep.trimEnd().split("\n");
    expect(lines[0]).toBe(`${" ".repeat(8)}  • ${"a ".repeat(33)}a`);
    expect(deep.length).toBeLessThan(50_000);
    expect(renderMarkdown(`\t\t\t\t\t1. deep`, plain, 80)).toBe(`${" ".repeat(8)}  1. deep\n`);
    // Millions of lines come out (push() of them all at once threw RangeError).
    const long = renderMarkdown("word ".repeat(2_000_000), plain, 10);
    expect(long.split("\n")).toHaveLength(1_000_001);
  });
  it("never passes the server's own escape sequences through", () => {
    const out = renderMarkdown("# Hi\x1b]0;owned\x07 \x1b[2Jthere", new Chalk({ level: 0 }));
    expect(out).toBe("Hi there\n");
  });
});
