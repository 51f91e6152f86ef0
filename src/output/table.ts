import { Chalk, type ChalkInstance } from "chalk";
import { identityOf } from "../contract/identity.js";
import type { IO } from "../io.js";
import { sanitizeInline } from "../terminal/sanitize.js";
import {
  type Cell,
  type Column,
  columnRules,
  type FormatContext,
  formatCell,
  isNumeric,
  type Tone,
} from "./columns.js";
import { fitToWidth, naturalWidths, SEPARATORS } from "./table-widths.js";
import { padEndWidth, padStartWidth, truncateWidth } from "./width.js";
import type { WrapCell } from "./wrap.js";

// A table that reads like a market screen: numbers aligned on the decimal point, changes coloured,
// text columns shrunk (never cut mid-character) and low-priority columns dropped to fit the
// terminal (table-widths.ts), nothing coloured when colour is off.

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

/**
 * The table's text: cells formatted and made inert, widths natural then fitted, and lines written
 * (by cli-table3's layout when a column wraps).
 */
export function renderTable(
  records: unknown[],
  allColumns: Column[],
  io: IO,
  options: TableOptions = {},
): RenderedTable {
  const matrix = formatCells(records, allColumns, io, options.now ?? Date.now());
  const widths = naturalWidths(matrix, allColumns);
  const { visible, separator } = options.width
    ? fitToWidth(matrix, allColumns, widths, options.width, options.wrap !== undefined)
    : { visible: allColumns.map((_, i) => i), separator: SEPARATORS[0] };
  // On a terminal, sentences wrap: the rows are laid out by cli-table3, lines of different heights.
  const wrap =
    options.width !== undefined && visible.some((index) => allColumns[index]!.wrap)
      ? options.wrap
      : undefined;
  const table: Laid = { matrix, columns: allColumns, widths, visible, keys: records.map(rowKey) };
  const cells = painter(table, io, options.highlight, wrap !== undefined);
  return finished(
    table,
    wrap ? drawWrapped(table, cells, separator, wrap) : drawLines(table, cells, separator),
  );
}

/** What the lines are written from: every cell and column and its width, the columns shown, each row's key. */
interface Laid {
  matrix: Cell[][];
  columns: Column[];
  widths: number[];
  visible: number[];
  keys: string[];
}

/** Every cell's text: formatted, redacted, made inert, and cut to its column's max unless it wraps. */
function formatCells(records: unknown[], columns: Column[], io: IO, now: number): Cell[][] {
  const ctx: FormatContext = { relativeTime: io.stdoutIsTTY, now };
  // One precision a column (or a group of columns), chosen from all its values: no 4.057 beside 4.0201.
  const rules = columnRules(records, columns);
  return records.map((record) =>
    columns.map((column, index) => {
      const cell = formatCell(record, column, ctx, rules[index]);
      const text = inert(cell.text, io);
      return { ...cell, text: column.max && !column.wrap ? truncateWidth(text, column.max) : text };
    }),
  );
}

/**
 * Redacted before it is cut to fit: a key cut in half would no longer be recognised. Again after a
 * control character was taken out, which could join a key back together.
 */
function inert(text: string, io: IO): string {
  const redacted = io.redact(text);
  const clean = sanitizeInline(redacted);
  return clean === redacted ? clean : io.redact(clean);
}

/** Pads, paints and highlights the header or a cell of the column shown at `position`. */
interface Painter {
  header(position: number): string;
  cell(rowIndex: number, position: number, text: string): string;
}

function painter(table: Laid, io: IO, highlight: Set<string> | undefined, wrapping: boolean): Painter {
  const chalk = new Chalk({ level: io.color ? 1 : 0 });
  const paint = io.color ? tonepainter(chalk) : (text: string) => text;
  const bold = io.color ? chalk.bold : (text: string) => text;
  const numeric = table.visible.map((index) => isNumeric(table.columns[index]!));
  const pad = (text: string, position: number) => {
    const index = table.visible[position]!;
    if (wrapping && table.columns[index]!.wrap) return text;
    return numeric[position]
      ? padStartWidth(text, table.widths[index]!)
      : padEndWidth(text, table.widths[index]!);
  };
  return {
    header: (position) => bold(pad(table.columns[table.visible[position]!]!.header, position)),
    cell: (rowIndex, position, text) => {
      const index = table.visible[position]!;
      const painted = paint(pad(text, position), table.matrix[rowIndex]![index]!.tone);
      return highlight?.has(cellKey(table.keys[rowIndex]!, table.columns[index]!))
        ? chalk.inverse(painted)
        : painted;
    },
  };
}

/**
 * Each line laid out here, once: cells padded to the widths (computed with the same display width
 * the fitting used), painted, joined by the separator, and written as it is. A table of one-line
 * rows needs nothing more; cli-table3 is for rows of different heights (drawWrapped), where it
 * earns its cost (~20 µs a cell, a layout pass quadratic in the rows).
 */
function drawLines(table: Laid, cells: Painter, separator: string): string {
  const lines: string[] = [table.visible.map((_, position) => cells.header(position)).join(separator)];
  table.matrix.forEach((row, rowIndex) => {
    lines.push(
      table.visible
        .map((index, position) => cells.cell(rowIndex, position, row[index]!.text))
        .join(separator),
    );
  });
  return `${lines.map((line) => line.trimEnd()).join("\n")}\n`;
}

function drawWrapped(
  table: Laid,
  cells: Painter,
  separator: string,
  wrap: typeof import("./wrap.js"),
): string {
  const rows: WrapCell[][] = [table.visible.map((_, position) => ({ text: cells.header(position) }))];
  table.matrix.forEach((row, rowIndex) => {
    rows.push(
      table.visible.map((index, position) => {
        const wraps = table.columns[index]!.wrap;
        // Broken where a word is wider than the column before it is painted: colour sequences
        // must not be split.
        const text = wraps ? wrap.breakLongWords(row[index]!.text, table.widths[index]!) : row[index]!.text;
        return { text: cells.cell(rowIndex, position, text), wrap: wraps };
      }),
    );
  });
  const widths = table.visible.map((index) => table.widths[index]!);
  return `${wrap.drawWrapped(rows, widths, separator)}\n`;
}

function finished(table: Laid, text: string): RenderedTable {
  let cells: Map<string, string> | undefined;
  return {
    text,
    hidden: table.columns.length - table.visible.length,
    // Only a watch compares cells: built when first asked for.
    get cells() {
      cells ??= new Map(
        table.matrix.flatMap((row, rowIndex) =>
          table.visible.map(
            (index) =>
              [cellKey(table.keys[rowIndex]!, table.columns[index]!), row[index]!.text.trim()] as [
                string,
                string,
              ],
          ),
        ),
      );
      return cells;
    },
  };
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
