import { getPath } from "../json/dot-paths.js";
import {
  compactPlaces,
  formatCompact,
  formatFixed,
  formatInteger,
  formatPercent,
  formatPlain,
  formatPrice,
  formatShare,
  formatTime,
  type PriceRule,
  priceRule,
  toDecimalNumber,
} from "./format.js";

// What a person sees in a table: which columns, how each value reads, and its tone (the colour it
// gets when colour is on; the text alone must carry the meaning, for NO_COLOR and pipes).

export type Tone = "up" | "down" | "good" | "bad" | "warn" | "dim";
export interface Cell {
  text: string;
  tone?: Tone;
}

export interface FormatContext {
  /** Times as "3m ago" (a terminal) or ISO (piped). */
  relativeTime: boolean;
  now: number;
}

export type CellFormat =
  | "price"
  | "usd"
  | "amount"
  | "percent"
  | "share"
  | "int"
  | "text"
  | "bool"
  | "rsi"
  | "time"
  | "address"
  | "status";

export interface Column {
  header: string;
  /** Dot paths tried in order; the first present one is shown. */
  paths: string[];
  format: CellFormat;
  /** Text columns: the widest they get, and the narrowest they shrink to on a narrow terminal. */
  max?: number;
  min?: number;
  /**
   * Text that is a sentence (check's reasons): on a terminal it wraps onto more lines at word
   * boundaries (cli-table3) instead of being cut, `max` being the widest it is laid out; the first
   * column to give up width. Piped, it is one line, whole.
   */
  wrap?: boolean;
  /** A value computed from the whole record (flags) instead of read from a path. */
  compute?: (record: unknown, ctx: FormatContext) => Cell;
  /**
   * Columns of one quantity (ta's support at 1m, 5m, … 1w) name one group: they share one
   * precision, chosen from all their values, so that 94.8730 stands beside 90.0185 in a row.
   */
  group?: string;
}

export function cellValue(record: unknown, column: Column): unknown {
  for (const path of column.paths) {
    const v = getPath(record, path);
    if (v !== undefined) return v;
  }
  return undefined;
}

export const isNumeric = (column: Column) =>
  !["text", "bool", "time", "address", "status"].includes(column.format);

function signedTone(value: number | undefined): Tone | undefined {
  if (value === undefined || value === 0) return undefined;
  return value > 0 ? "up" : "down";
}

const STATUS_TONES: Record<string, Tone> = { SAFE: "good", LOW: "good", CAUTION: "warn", MEDIUM: "warn" };

/** A column's one precision, chosen from all its values (columnRule); a cell alone is a column of one. */
export interface ColumnRule {
  price?: PriceRule;
  places?: number;
}

/** The precision every cell of these columns is written with, from all their values. */
function ruleOf(records: readonly unknown[], columns: readonly Column[]): ColumnRule {
  const [column] = columns;
  if (!column || column.compute) return {};
  const values = () => records.flatMap((record) => columns.map((c) => cellValue(record, c)));
  if (column.format === "price") return { price: priceRule(values()) };
  if (column.format === "usd" || column.format === "amount") return { places: compactPlaces(values()) };
  return {};
}

/** The precision every cell of a column is written with, from the column's values. */
export function columnRule(records: readonly unknown[], column: Column): ColumnRule {
  return ruleOf(records, [column]);
}

/** Each column's rule; the columns of one group (of one format) share the rule of all their values. */
export function columnRules(records: readonly unknown[], columns: readonly Column[]): ColumnRule[] {
  const shared = new Map<string, ColumnRule>();
  return columns.map((column) => {
    const key = column.group === undefined ? undefined : `${column.group}\u0000${column.format}`;
    if (key === undefined) return columnRule(records, column);
    let rule = shared.get(key);
    if (!rule) {
      const members = columns.filter((c) => c.group === column.group && c.format === column.format);
      rule = ruleOf(records, members);
      shared.set(key, rule);
    }
    return rule;
  });
}

export function formatCell(
  record: unknown,
  column: Column,
  ctx: FormatContext,
  rule: ColumnRule = columnRule([record], column),
): Cell {
  if (column.compute) return column.compute(record, ctx);
  const value = cellValue(record, column);
  switch (column.format) {
    case "price":
      return { text: formatPrice(value, rule.price) };
    case "usd":
      return { text: formatCompact(value, "$", rule.places) };
    case "amount":
      return { text: formatCompact(value, "", rule.places) };
    case "percent": {
      const text = formatPercent(value);
      return { text, tone: text === "0.00%" ? undefined : signedTone(toDecimalNumber(value)) };
    }
    case "share":
      return { text: formatShare(value) };
    case "int":
      return { text: formatInteger(value) };
    case "bool":
      if (typeof value !== "boolean") return { text: formatPlain(value) };
      return { text: value ? "✓" : "✗" };
    case "rsi": {
      const n = toDecimalNumber(value);
      if (n === undefined) return { text: formatPlain(value) };
      const text = formatFixed(value, 1);
      if (n > 70) return { text: `${text} OB`, tone: "bad" };
      if (n < 30) return { text: `${text} OS`, tone: "good" };
      return { text };
    }
    case "time":
      return { text: formatTime(value, ctx), tone: "dim" };
    case "address": {
      const text = formatPlain(value);
      return { text: text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text };
    }
    case "status": {
      const text = formatPlain(value);
      return { text, tone: STATUS_TONES[text.toUpperCase()] ?? (text === "-" ? undefined : "bad") };
    }
    default:
      // A true or false in any column reads as the views' do.
      if (typeof value === "boolean") return { text: value ? "✓" : "✗" };
      return { text: formatPlain(value) };
  }
}

export const col = (
  header: string,
  path: string | string[],
  format: CellFormat,
  extra: Partial<Column> = {},
): Column => ({
  header,
  paths: Array.isArray(path) ? path : [path],
  format,
  ...extra,
});

/**
 * The table columns for --fields/--columns paths: a path one of the command's views shows is that
 * column (its header and format: SYMBOL, ✓/✗); another is headed by its field's name in capitals
 * (TOTAL HOLDER COUNT), or by its whole path when two fields share a name.
 */
export function columnsForPaths(paths: readonly string[], shown: readonly Column[] = []): Column[] {
  const leaf = (path: string) => path.split(".").pop()!;
  const shared = new Set(
    paths.filter((path, index) => paths.findIndex((other) => leaf(other) === leaf(path)) !== index).map(leaf),
  );
  return paths.map((path) => {
    const own = shown.find(
      (candidate) => !candidate.compute && candidate.paths.length === 1 && candidate.paths[0] === path,
    );
    if (own) return own;
    const column = columnForPath(path);
    const name = shared.has(leaf(path)) ? path : leaf(path);
    return { ...column, header: name.replace(/[._]/g, " ").toUpperCase() };
  });
}

/** A column for a --fields/--columns path: the format guessed from the field's name. */
export function columnForPath(path: string): Column {
  const leaf = path.split(".").pop() ?? path;
  let format: CellFormat = "text";
  if (/^rsi$/.test(leaf)) format = "rsi";
  else if (/_percentage(_|$)/.test(leaf)) format = /change|price_change/.test(leaf) ? "percent" : "share";
  else if (/price|^sma$|^support$|^resistance$/.test(leaf)) format = "price";
  else if (/^(mcap|fdv|volume_24h|total_liquidity|market_cap|last_24_hrs_volume)$/.test(leaf)) format = "usd";
  else if (/count/.test(leaf)) format = "int";
  else if (/(balance|supply|bought|holding|amount|buy|sold)(_24h)?$/.test(leaf)) format = "amount";
  else if (/^(fresh_wallet|dev_sold)$/.test(leaf)) format = "bool";
  else if (/_at$/.test(leaf)) format = "time";
  else if (/^mindshare/.test(leaf)) format = "share";
  return col(path, path, format, format === "text" ? { max: 40, min: 6 } : {});
}
