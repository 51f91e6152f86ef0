import { Chalk, type ChalkInstance } from "chalk";
import { identityOf } from "../contract/identity.js";
import type { IO } from "../io.js";
import { sanitizeInline } from "../terminal/sanitize.js";
import {
  type Cell,
  type Column,
  columnRule,
  type FormatContext,
  formatCell,
  isNumeric,
  type Tone,
} from "./columns.js";
import { displayWidth, padEndWidth, padStartWidth, truncateWidth } from "./width.js";
import type { WrapCell } from "./wrap.js";

// A table that reads like a market screen: numbers aligned on the decimal point, changes coloured,
// text columns shrunk (never cut mid-character) and low-priority columns dropped to fit the
// terminal, nothing coloured when colour is off.

/** Two spaces between columns, one when the terminal is too narrow for two. */
const SEPARATORS = ["  ", " "];
/** Formats aligned on the decimal point; compact amounts ($1.2M, $78K) are right-aligned instead. */
const DECIMAL_ALIGNED = new Set(["price", "percent", "share", "rsi", "int"]);

export interface TableOptions {
  /** Cells to highlight (watch mode: changed since the last refresh), keyed by cellKey(). */
  highlight?: Set<string>;
  /** When set, the table must fit this many columns. */
  width?: number;
  now?: number;
  /**
   * The layout of rows of different heights (cli-table3, `./wrap.js`), which the caller loads when
   * a column wraps and a width is set, so that a table of one-line rows never loads it. Without it
   * a wrapping column is cut to fit like any other.
   */
  wrap?: typeof import("./wrap.js");
}

export interface RenderedTable {
  text: string;
  /** Every cell's text by cellKey(), for finding what changed between two renders. */
  cells: Map<string, string>;
  /** Columns left out to fit the width. */
  hidden: number;
}

/** A row's identity across refreshes (a watch compares cells by it): its id, else its place. */
export function rowKey(record: unknown, index: number): string {
  return identityOf(record, "id") ?? `#${index}`;
}

export function cellKey(row: string, column: Column): string {
  return `${row}\u0000${column.header}`;
}

const isDigit = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x2080 && code <= 0x2089);
/** A character of a number's digits: 0-9, ₀-₉, the point, the thousands comma. */
const inNumber = (code: number) => isDigit(code) || code === 0x2e || code === 0x2c;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Splits a number's text at the decimal point: "+1.23%" → ["+1", ".23%"]; "-" stays whole. The
 * right part is the fraction (a point and digits, when the number has one) and what follows the
 * last digit; text with a line break before that stays whole. (The same split as
 * /^(.*?)((?:\.[0-9₀-₉]+)?[^0-9₀-₉.,]*)$/, in one pass from the end.)
 */
export function splitDecimal(text: string): [string, string] {
  if (text === "-") return [text, ""];
  let end = text.length;
  while (end > 0 && !inNumber(text.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
  const split = start < end && start > 0 && text.charCodeAt(start - 1) === 0x2e ? start - 1 : end;
  const whole = text.slice(0, split);
  return LINE_BREAK.test(whole) ? [text, ""] : [whole, text.slice(split)];
}

export function renderTable(
  records: unknown[],
  allColumns: Column[],
  io: IO,
  options: TableOptions = {},
): RenderedTable {
  const ctx: FormatContext = { relativeTime: io.stdoutIsTTY, now: options.now ?? Date.now() };
  const keys = records.map(rowKey);
  // One precision a column, chosen from all its values: no 4.057 beside 4.0201.
  const rules = allColumns.map((column) => columnRule(records, column));
  const matrix: Cell[][] = records.map((record) =>
    allColumns.map((column, c) => {
      const cell = formatCell(record, column, ctx, rules[c]);
      // Redacted before it is cut to fit: a key cut in half would no longer be recognised. Again
      // after a control character was taken out, which could join a key back together.
      const redacted = io.redact(cell.text);
      const clean = sanitizeInline(redacted);
      const text = clean === redacted ? clean : io.redact(clean);
      return { ...cell, text: column.max && !column.wrap ? truncateWidth(text, column.max) : text };
    }),
  );

  // Natural widths, numbers aligned on the decimal point.
  const widths = allColumns.map((column, c) => {
    let width = displayWidth(column.header);
    if (DECIMAL_ALIGNED.has(column.format)) {
      const parts = matrix.map((row) => splitDecimal(row[c]!.text));
      const lefts = parts.map(([l]) => displayWidth(l));
      const rights = parts.map(([, r]) => displayWidth(r));
      let left = 0;
      let right = 0;
      for (let i = 0; i < parts.length; i++) {
        left = Math.max(left, lefts[i]!);
        right = Math.max(right, rights[i]!);
      }
      parts.forEach(([l, r], i) => {
        matrix[i]![c]!.text = " ".repeat(left - lefts[i]!) + l + r + " ".repeat(right - rights[i]!);
      });
      width = Math.max(width, left + right);
    } else {
      for (const row of matrix) width = Math.max(width, displayWidth(row[c]!.text));
    }
    return width;
  });

  // Fit: shrink text columns (widest first; columns that wrap before columns that are cut) down to
  // their minimum, then drop columns from the end.
  let visible = allColumns.map((_, i) => i);
  let separator = SEPARATORS[0]!;
  if (options.width) {
    allColumns.forEach((column, i) => {
      if (column.wrap && column.max)
        widths[i] = Math.min(widths[i]!, Math.max(column.max, displayWidth(column.header)));
    });
    const total = () =>
      visible.reduce((sum, i) => sum + widths[i]!, 0) + separator.length * (visible.length - 1);
    if (total() > options.width) separator = SEPARATORS[1]!;
    // Take one cell at a time from the widest text column still above its minimum.
    const floor = (i: number) => Math.max(allColumns[i]!.min!, displayWidth(allColumns[i]!.header));
    const shrinkable = visible.filter((i) => allColumns[i]!.min !== undefined);
    for (let over = total() - options.width; over > 0; over--) {
      const above = shrinkable.filter((i) => widths[i]! > floor(i));
      const wrapping = above.filter((i) => allColumns[i]!.wrap);
      const widest = (wrapping.length ? wrapping : above).sort((x, y) => widths[y]! - widths[x]!)[0];
      if (widest === undefined) break;
      widths[widest]!--;
    }
    while (total() > options.width && visible.length > 1) visible = visible.slice(0, -1);
    for (const i of visible) {
      // A wrapping column is cut only when its layout was not loaded (a watch's redraw).
      if (allColumns[i]!.wrap ? options.wrap : allColumns[i]!.min === undefined) continue;
      for (const row of matrix) row[i]!.text = truncateWidth(row[i]!.text, widths[i]!);
    }
  }
  // On a terminal, sentences wrap: the rows are laid out by cli-table3, lines of different heights.
  const wrap =
    options.width !== undefined && visible.some((i) => allColumns[i]!.wrap) ? options.wrap : undefined;
  const wrapping = wrap !== undefined;

  const chalk = new Chalk({ level: io.color ? 1 : 0 });
  const paint = io.color ? tonepainter(chalk) : (text: string) => text;
  const bold = io.color ? chalk.bold : (text: string) => text;
  const numeric = visible.map((i) => isNumeric(allColumns[i]!));
  const pad = (text: string, v: number) =>
    wrapping && allColumns[visible[v]!]!.wrap
      ? text
      : numeric[v]
        ? padStartWidth(text, widths[visible[v]!]!)
        : padEndWidth(text, widths[visible[v]!]!);
  // Each line is laid out here, once: cells padded to the widths above (computed with the same
  // display width the fitting used), painted, joined by the separator, and written as it is. A
  // table of one-line rows needs nothing more; cli-table3 is for rows of different heights (below),
  // where it earns its cost (~20 µs a cell, a layout pass quadratic in the rows).
  const highlight = options.highlight;
  const paintCell = (r: number, i: number, v: number, text: string) => {
    const painted = paint(pad(text, v), matrix[r]![i]!.tone);
    return highlight?.has(cellKey(keys[r]!, allColumns[i]!)) ? chalk.inverse(painted) : painted;
  };
  if (wrap) {
    const rows: WrapCell[][] = [visible.map((i, v) => ({ text: bold(pad(allColumns[i]!.header, v)) }))];
    matrix.forEach((row, r) => {
      rows.push(
        visible.map((i, v) => {
          const wraps = allColumns[i]!.wrap;
          // Broken where a word is wider than the column before it is painted: colour sequences
          // must not be split.
          const text = wraps ? wrap.breakLongWords(row[i]!.text, widths[i]!) : row[i]!.text;
          return { text: paintCell(r, i, v, text), wrap: wraps };
        }),
      );
    });
    return finished(
      `${wrap.drawWrapped(
        rows,
        visible.map((i) => widths[i]!),
        separator,
      )}\n`,
    );
  }
  const lines: string[] = [visible.map((i, v) => bold(pad(allColumns[i]!.header, v))).join(separator)];
  matrix.forEach((row, r) => {
    lines.push(visible.map((i, v) => paintCell(r, i, v, row[i]!.text)).join(separator));
  });
  return finished(`${lines.map((line) => line.trimEnd()).join("\n")}\n`);

  function finished(text: string): RenderedTable {
    let cells: Map<string, string> | undefined;
    return {
      text,
      hidden: allColumns.length - visible.length,
      // Only a watch compares cells: built when first asked for.
      get cells() {
        cells ??= new Map(
          matrix.flatMap((row, r) =>
            visible.map((i) => [cellKey(keys[r]!, allColumns[i]!), row[i]!.text.trim()] as [string, string]),
          ),
        );
        return cells;
      },
    };
  }
}

function tonepainter(chalk: ChalkInstance): (text: string, tone: Tone | undefined) => string {
  const styles: Record<Tone, (s: string) => string> = {
    up: chalk.green,
    down: chalk.red,
    good: chalk.green,
    bad: chalk.red.bold,
    warn: chalk.yellow,
    dim: chalk.dim,
  };
  return (text, tone) => (tone ? styles[tone](text) : text);
}
