import { beforeAll, describe, expect, it } from "vitest";
import { useServers } from "../fixtures.js";
import { type HostileServer, sendJson } from "../hostile-server.js";
import { inTerminal, plain } from "../terminal-session.js";

// A market table whose token names hold emoji, CJK and accents, drawn in a real terminal: every
// column starts at the same cell in every row. The cells are counted here on their own, from a
// table of the clusters these names hold (what a terminal draws), not with src/output/width.ts.

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦
const FLAG = "\u{1F1FA}\u{1F1F8}"; // 🇺🇸
const KEYCAP = "1\uFE0F\u20E3"; // 1️⃣
const TOKENS: Array<[symbol: string, name: string]> = [
  ["ORB\u{1F7E0}", "\u{1F7E0} orange orb"],
  ["MJ\u{1F004}", "\u{1F004} mahjong"],
  ["KOKO\u{1F201}", "\u{1F201} here"],
  ["AB\u{1F18E}", "\u{1F18E} blood"],
  [`US${FLAG}`, `${FLAG} eagle`],
  [`ONE${KEYCAP}`, `${KEYCAP} keycap`],
  [`FAM${FAMILY}`, `${FAMILY} family`],
  ["NIHON", "日本語 token"],
  ["CAFE", "cafe\u0301 ole\u0300"],
  ["PLAIN", "plain ascii"],
];

/** Cells of the clusters above that are not printable ASCII, as terminals draw them. */
const CELLS: Record<string, number> = {
  "\u{1F7E0}": 2,
  "\u{1F004}": 2,
  "\u{1F201}": 2,
  "\u{1F18E}": 2,
  [FLAG]: 2,
  [KEYCAP]: 2,
  [FAMILY]: 2,
  日: 2,
  本: 2,
  語: 2,
  "e\u0301": 1,
  "e\u0300": 1,
};

const segmenter = new Intl.Segmenter();

/** The display column where each cell of a line starts and ends (cells: text between runs of 2+ spaces). */
function cellSpans(line: string): Array<[start: number, end: number]> {
  const spans: Array<[number, number]> = [];
  let column = 0;
  let spaces = 0;
  for (const { segment } of segmenter.segment(line)) {
    const cells = /^[\x20-\x7e]$/.test(segment) ? 1 : CELLS[segment];
    if (cells === undefined) throw new Error(`no width known for ${JSON.stringify(segment)} in ${line}`);
    if (segment === " ") spaces++;
    else {
      if (spans.length === 0 || spaces >= 2) spans.push([column, column]);
      spaces = 0;
    }
    column += cells;
    if (segment !== " ") spans[spans.length - 1]![1] = column;
  }
  return spans;
}

const servers = useServers();
const dir = { path: servers.folder() };
let server: HostileServer;
beforeAll(async () => {
  server = await servers.stub((req, res) => {
    if (!req.url?.startsWith("/v1/crypto-market/")) return sendJson(res, { success: false }, 404);
    // Every number the same in every row, so that only the names could move a column.
    const data = TOKENS.map(([symbol, name], i) => ({
      id: `id-${i}`,
      token_info: { symbol, name, chain: "base" },
      token_metrics: {
        usd_price: "1.25",
        price_change_percentage_1h: 2.5,
        price_change_percentage_7d: -3.25,
        mcap: 1234567,
        volume_24h: 45678,
        total_liquidity: 9876,
      },
    }));
    sendJson(res, { success: true, data });
  });
});

describe("a market table of token names with emoji, in a terminal", () => {
  it("lines every column up: each cell starts and ends at the same display column in every row", async () => {
    const session = inTerminal(
      ["market", "--base-url", server.url, "--api-key", "k", "-c", "base", "--tickers", "X"],
      dir.path,
      { COLUMNS: "160" },
    );
    expect(await session.exited, session.screen()).toBe(0);
    const lines = plain(session.screen()).filter((l) => l.trim() !== "");
    const header = lines.findIndex((l) => l.startsWith("SYMBOL"));
    expect(header, session.screen()).toBeGreaterThanOrEqual(0);
    const rows = lines.slice(header + 1, header + 1 + TOKENS.length);
    // Each name is on its row, whole (nothing was cut).
    expect(rows.map((r) => r.split(/\s{2,}/).slice(0, 2))).toEqual(TOKENS);
    const spans = rows.map(cellSpans);
    const [first] = spans;
    expect(first!.length).toBeGreaterThan(4);
    for (const [i, row] of spans.entries()) {
      expect(row.length, rows[i]).toBe(first!.length);
      // SYMBOL and NAME are left-aligned: they start where their header does; every number after
      // them is the same in every row, so it starts and ends at the same column everywhere.
      expect(
        row.map(([start]) => start),
        rows[i],
      ).toEqual(first!.map(([start]) => start));
      expect(row.slice(2), rows[i]).toEqual(first!.slice(2));
    }
    const head = cellSpans(lines[header]!);
    expect(first!.slice(0, 2).map(([start]) => start)).toEqual(head.slice(0, 2).map(([start]) => start));
    // The last column is a number, right-aligned under its header.
    expect(first!.at(-1)![1]).toBe(head.at(-1)![1]);
  });
});
