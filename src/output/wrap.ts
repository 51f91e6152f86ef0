import Table from "cli-table3";
import { charWidth, displayWidth } from "./width.js";

// Tables whose cells are sentences (check's reasons, config list's notes, auth status), laid out by
// cli-table3 at the terminal's width: a cell wider than its column wraps onto more lines, at word
// boundaries, instead of being cut. Tables of figures (market, directory, ...) are laid out line by
// line in table.ts; this is where a table has lines of different heights.

/** A cell: its text (colour sequences allowed), whether it may wrap, and how many columns it spans. */
export interface WrapCell {
  text: string;
  /** Wraps at its column's width; otherwise the text is already laid out to fit it. */
  wrap?: boolean;
  span?: number;
}

const NO_CHARS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
};

/** Characters after which a word too long for its column is best broken. */
const BREAK_AFTER = new Set([".", "_", "=", "/", "-", ",", ":", ";", ")", "@"]);

/**
 * `text` with every word wider than `width` broken onto lines of at most `width` cells (after a
 * `.`, `_`, `=`, ... when one falls in the second half of the line, else at the width), so that
 * word wrapping never has to cut one. Plain text only: colour is added after.
 */
export function breakLongWords(text: string, width: number): string {
  if (width < 1) return text;
  return text
    .split("\n")
    .map((line) =>
      line
        .split(/( +)/)
        .map((word, i) => (i % 2 === 0 && displayWidth(word) > width ? breakWord(word, width) : word))
        .join(""),
    )
    .join("\n");
}

function breakWord(word: string, width: number): string {
  const pieces: string[] = [];
  let rest = [...word];
  while (rest.length) {
    let cells = 0;
    let end = 0;
    let soft = 0;
    for (; end < rest.length; end++) {
      const w = charWidth(rest[end]!);
      if (cells + w > width) break;
      cells += w;
      if (BREAK_AFTER.has(rest[end]!) && cells * 2 >= width) soft = end + 1;
    }
    if (end === rest.length) {
      pieces.push(rest.join(""));
      break;
    }
    const cut = soft || Math.max(end, 1);
    pieces.push(rest.slice(0, cut).join(""));
    rest = rest.slice(cut);
  }
  return pieces.join("\n");
}

/**
 * The rows drawn with these column widths and `separator` between columns: wrapping cells broken
 * into lines at word boundaries (a word wider than its column must already be broken, see
 * breakLongWords), each row as tall as its tallest cell, lines without trailing spaces. No line is
 * wider than the widths and separators add up to.
 */
export function drawWrapped(rows: WrapCell[][], widths: number[], separator: string): string {
  const table = new Table({
    chars: { ...NO_CHARS, middle: separator },
    style: { head: [], border: [], compact: true, "padding-left": 0, "padding-right": 0 },
    colWidths: widths,
    wordWrap: true,
    wrapOnWordBoundary: true,
  });
  for (const row of rows) {
    table.push(
      row.map((cell) => {
        const span = cell.span ?? 1;
        return {
          content: cell.text,
          colSpan: span,
          wordWrap: cell.wrap ?? false,
        };
      }),
    );
  }
  return table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

/**
 * Column widths that fit `width`: columns that wrap give up cells first (widest first, down to
 * their floor), then the others; what still does not fit is left to the caller.
 */
export function fitWidths(
  natural: number[],
  floors: number[],
  wraps: boolean[],
  width: number,
  separator: number,
): number[] {
  const widths = [...natural];
  const total = () =>
    widths.reduce((sum, columnWidth) => sum + columnWidth, 0) + separator * (widths.length - 1);
  for (let over = total() - width; over > 0; over--) {
    const above = widths.map((_, index) => index).filter((index) => widths[index]! > floors[index]!);
    const wrapping = above.filter((index) => wraps[index]);
    const pool = wrapping.length ? wrapping : above;
    const widest = pool.sort((x, y) => widths[y]! - widths[x]!)[0];
    if (widest === undefined) break;
    widths[widest]!--;
  }
  return widths;
}

/**
 * Rows of sentences laid out at the terminal's `width` (undefined: piped, every cell on one line).
 * Every column may wrap; those marked in `wraps` give up their cells first.
 */
export function wrapRows(
  rows: WrapCell[][],
  options: { width?: number; separator?: string; floors?: number[] },
): string {
  const separator = options.separator ?? "  ";
  const columns = Math.max(...rows.map((row) => row.reduce((count, cell) => count + (cell.span ?? 1), 0)));
  const natural = Array.from({ length: columns }, () => 1);
  const wraps = Array.from({ length: columns }, () => false);
  for (const row of rows) {
    let column = 0;
    for (const cell of row) {
      const span = cell.span ?? 1;
      if (span === 1) natural[column] = Math.max(natural[column]!, widest(cell.text));
      if (cell.wrap) for (let c = column; c < column + span; c++) wraps[c] = true;
      column += span;
    }
  }
  // A spanning cell wider than its columns widens the last of them.
  for (const row of rows) {
    let column = 0;
    for (const cell of row) {
      const span = cell.span ?? 1;
      if (span > 1) {
        const room =
          natural.slice(column, column + span).reduce((sum, columnWidth) => sum + columnWidth, 0) +
          separator.length * (span - 1);
        const last = column + span - 1;
        natural[last] = natural[last]! + Math.max(0, widest(cell.text) - room);
      }
      column += span;
    }
  }
  const floors = options.floors ?? natural.map(() => 4);
  const widths =
    options.width === undefined
      ? natural
      : fitWidths(
          natural,
          natural.map((n, i) => Math.min(n, floors[i] ?? 4)),
          wraps,
          options.width,
          separator.length,
        );
  if (options.width === undefined) return `${drawWrapped(rows, widths, separator)}\n`;
  // On a terminal every cell may wrap once the sentence columns are at their floor. cli-table3 wraps
  // a spanning cell at its columns' widths added up (without the separators).
  const fitted = rows.map((row) => {
    let column = 0;
    return row.map((cell) => {
      const span = cell.span ?? 1;
      const width = widths.slice(column, column + span).reduce((sum, columnWidth) => sum + columnWidth, 0);
      column += span;
      return { ...cell, text: breakLongWords(cell.text, width), wrap: true };
    });
  });
  return `${drawWrapped(fitted, widths, separator)}\n`;
}

const widest = (text: string) => Math.max(...text.split("\n").map(displayWidth));
