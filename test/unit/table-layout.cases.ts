import { PassThrough } from "node:stream";
import { chooseColumns } from "../../src/commands/data/definition.js";
import { MARKET } from "../../src/commands/market/definition.js";
import { IO } from "../../src/io.js";
import { LosslessNumber } from "../../src/json/exact.js";
import { type Column, columnForPath } from "../../src/output/columns.js";
import { renderTable } from "../../src/output/table.js";

// Table layouts pinned byte for byte (table-layout.test.ts compares them with
// table-layout.golden.json, which was written by this file run against the code before the table
// was made fast). Records: every cell format, awkward numbers, hostile and wide text, a secret.

const SECRET = "ti_layout_secret_key_7d1e";
const NOW = Date.parse("2026-11-21T12:00:00.000Z");

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  "Alpha Protocol",
  "トークン Alpha Protocol Long Name",
  "rocket 🚀 coin",
  "e\u0301clair combining",
  "zero\u200bwidth space",
  "line\u2028separator",
  "\x1b[31mred\x1b[0m escape",
  "tab\tand\nnewline",
  "bidi \u202eoverride",
  "variation \u2764\uFE0F heart",
  "हिन्दी टोकन",
  "A very long token name that goes on and on past every column limit",
  `leaks ${SECRET} here`,
  "",
  "—",
  "Ünïcödé Ltd",
];

function amount(r: () => number): unknown {
  const k = Math.floor(r() * 12);
  const digits = (n: number) => Math.floor(r() * 10 ** n).toString();
  switch (k) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return `0.${"0".repeat(Math.floor(r() * 12))}${digits(5)}`;
    case 3:
      return `-${digits(2)}.${digits(4)}`;
    case 4:
      return new LosslessNumber(`${digits(15)}${digits(15)}.${digits(3)}`);
    case 5:
      return r() * 1000;
    case 6:
      return `${digits(1)}.${digits(2)}e-${Math.floor(r() * 12)}`;
    case 7:
      return "1e400";
    case 8:
      return "not a number";
    case 9:
      return "0";
    default:
      return `${digits(1 + Math.floor(r() * 12))}.${digits(Math.floor(r() * 6) + 1)}`;
  }
}

/** Prices: amounts but the ones a price column writes out in hundreds of digits. */
function price(r: () => number): unknown {
  const value = amount(r);
  return value === "1e400" || value instanceof LosslessNumber ? "0.000000000042" : value;
}

function records(): unknown[] {
  const r = rng(14);
  const pct = () => (r() < 0.1 ? null : `${r() < 0.5 ? "-" : ""}${(r() * 120).toFixed(Math.floor(r() * 4))}`);
  return Array.from({ length: 16 }, (_, i) => ({
    id: `id${i % 15}`,
    token_info: { symbol: i === 3 ? "S\u0000YM\x1b]0;t\x07" : `T${i}${"X".repeat(i % 5)}`, name: NAMES[i] },
    token_metrics: {
      usd_price: price(r),
      price_change_percentage_1h: pct(),
      price_change_percentage_24h: pct(),
      price_change_percentage_7d: pct(),
      price_change_percentage_30d: pct(),
      mcap: amount(r),
      fdv: amount(r),
      volume_24h: amount(r),
      total_liquidity: amount(r),
      price_ath: amount(r),
    },
    token_holder_insights: {
      total_holder_count: Math.floor(r() * 10 ** (1 + Math.floor(r() * 7))),
      holder_count_change_percentage_24h: pct(),
      top_10_holder_percentage: amount(r),
      top_50_holder_percentage: pct(),
      top_100_holder_percentage: pct(),
      fifty_percentage_holding_wallet_count: i % 4 === 0 ? null : Math.floor(r() * 5000),
      first_100_buyers_initial_bought_percentage: pct(),
      first_100_buyers_current_holding_percentage: pct(),
    },
    x_social_metrics: {
      mindshare_3d: amount(r),
      mindshare_change_percentage_3d: pct(),
      mindshare_7d: amount(r),
      mindshare_change_percentage_7d: pct(),
      impression_count_7d: amount(r),
      engagement_count_7d: amount(r),
      follower_count_7d: amount(r),
      smart_follower_count_7d: Math.floor(r() * 900),
    },
    dev_wallet_insights: {
      wallet_address:
        i % 3
          ? `0x${Math.floor(r() * 2 ** 52)
              .toString(16)
              .padStart(40, "0")}`
          : "short",
      wallet_balance: amount(r),
      dev_wallet_total_holding_percentage: pct(),
      dev_wallet_outflow_txs_count_24h: Math.floor(r() * 40),
      dev_wallet_outflow_amount_24h: amount(r),
      fresh_wallet: i % 3 === 0 ? null : r() < 0.5,
      dev_sold: r() < 0.5,
      dev_sold_percentage: pct(),
      bundle_wallet_count: Math.floor(r() * 30),
      bundle_wallet_supply_percentage: pct(),
    },
    technical_indicators: { rsi: r() < 0.1 ? "n/a" : (r() * 100).toFixed(2) },
    last_updated_at: new Date(NOW - Math.floor(r() * 4e8) + 1e6).toISOString(),
  }));
}

function io(tty: boolean, color: boolean): IO {
  const out = new IO({
    stdout: Object.assign(new PassThrough(), { isTTY: tty, columns: 100 }),
    stderr: new PassThrough(),
    env: color ? { FORCE_COLOR: "1" } : { NO_COLOR: "1" },
  });
  out.addSecret(SECRET);
  return out;
}

/** Every case's rendered table by name: text, hidden columns, and the cells a watch compares. */
export function tableCases(): Record<string, string> {
  const rows = records();
  const out: Record<string, string> = {};
  const views = MARKET.table.views;
  const columnSets: Array<[string, Column[]]> = Object.entries(views).flatMap(([name, layout]) => [
    [name, [...chooseColumns(layout.columns, rows)]] as [string, Column[]],
    [`${name}+wide`, [...chooseColumns(layout.columns, rows), ...chooseColumns(layout.wide, rows)]] as [
      string,
      Column[],
    ],
  ]);
  columnSets.push([
    "columns",
    ["token_info.name", "token_metrics.usd_price", "dev_wallet_insights.dev_sold", "last_updated_at"].map(
      columnForPath,
    ),
  ]);
  for (const [name, columns] of columnSets) {
    out[`${name} piped`] = renderTable(rows, columns, io(false, false), { now: NOW }).text;
    for (const width of [160, 100, 80, 60, 40, 12]) {
      for (const color of width === 80 || width === 160 ? [false, true] : [false]) {
        const t = renderTable(rows, columns, io(true, color), { width, now: NOW });
        out[`${name} ${width}${color ? " colour" : ""}`] = `${t.text}hidden: ${t.hidden}\n`;
      }
    }
  }
  // More rows than cli-table3 is handed at a time.
  const many = Array.from({ length: 5 }, () => rows).flat();
  out["overview many 100"] = renderTable(
    many,
    [...chooseColumns(views.overview!.columns, many)],
    io(true, true),
    {
      width: 100,
      now: NOW,
    },
  ).text;
  const overview = [
    ...chooseColumns(views.overview!.columns, rows),
    ...chooseColumns(views.overview!.wide, rows),
  ];
  const first = renderTable(rows, overview, io(true, true), { width: 160, now: NOW });
  out["overview cells"] = JSON.stringify([...first.cells]);
  const highlight = new Set([...first.cells.keys()].filter((_, i) => i % 7 === 0));
  out["overview highlight"] = renderTable(rows, overview, io(true, true), {
    width: 160,
    now: NOW,
    highlight,
  }).text;
  return out;
}
