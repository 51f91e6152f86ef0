import type { Cell, Column } from "./columns.js";
import { displayWidth, truncateWidth } from "./width.js";

// A table's column widths: each column's natural width (numbers aligned on the decimal point), then
// fitted to the terminal: text columns shrunk (never cut mid-character) and low-priority columns
// dropped.

/** Two spaces between columns, one when the terminal is too narrow for two. */
export const SEPARATORS = ["  ", " "] as const;
/** Formats aligned on the decimal point; compact amounts ($1.2M, $78K) are right-aligned instead. */
const DECIMAL_ALIGNED = new Set(["price", "percent", "share", "rsi", "int"]);

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

/** Each column's natural width; the cells of a decimal-aligned column are padded to line up on the point. */
export function naturalWidths(matrix: Cell[][], columns: Column[]): number[] {
  return columns.map((column, index) => {
    const header = displayWidth(column.header);
    return DECIMAL_ALIGNED.has(column.format)
      ? alignDecimals(matrix, index, header)
      : widestCell(matrix, index, header);
  });
}

function widestCell(matrix: Cell[][], index: number, width: number): number {
  for (const row of matrix) width = Math.max(width, displayWidth(row[index]!.text));
  return width;
}

/**
 * Pads the cells of the column at `index` to one width left of the point and one right of it;
 * the column's width.
 */
function alignDecimals(matrix: Cell[][], index: number, header: number): number {
  const parts = matrix.map((row) => splitDecimal(row[index]!.text));
  const lefts = parts.map(([before]) => displayWidth(before));
  const rights = parts.map(([, after]) => displayWidth(after));
  let left = 0;
  let right = 0;
  for (let i = 0; i < parts.length; i++) {
    left = Math.max(left, lefts[i]!);
    right = Math.max(right, rights[i]!);
  }
  parts.forEach(([before, after], rowIndex) => {
    matrix[rowIndex]![index]!.text =
      " ".repeat(left - lefts[rowIndex]!) + before + after + " ".repeat(right - rights[rowIndex]!);
  });
  return Math.max(header, left + right);
}

export interface Fit {
  /** The indexes of the columns shown, in order. */
  visible: number[];
  separator: string;
}

/**
 * Fits the columns to `width`, changing `widths` and the cells: a wrapping column capped at its
 * max; columns dropped from the end while the rest cannot fit even with every text column at its
 * minimum; then the text columns left shrunk (widest first; columns that wrap before columns that
 * are cut) by what is still over, and their cells cut. A column without a minimum (the symbol) is
 * never shrunk or cut. `wrapLoaded`: the layout of rows of different heights is loaded, so a
 * wrapping column is not cut.
 */
export function fitToWidth(
  matrix: Cell[][],
  columns: Column[],
  widths: number[],
  width: number,
  wrapLoaded: boolean,
): Fit {
  columns.forEach((column, index) => {
    if (column.wrap && column.max)
      widths[index] = Math.min(widths[index]!, Math.max(column.max, displayWidth(column.header)));
  });
  const fit: Fit = { visible: columns.map((_, i) => i), separator: SEPARATORS[0] };
  const total = (each: (i: number) => number, separator: string) =>
    fit.visible.reduce((sum, index) => sum + each(index), 0) + separator.length * (fit.visible.length - 1);
  const narrowest = (index: number) =>
    columns[index]!.min === undefined ? widths[index]! : floor(columns[index]!, widths[index]!);
  // Only columns that cannot fit at all are dropped: a text column gives up width before a column goes.
  while (total(narrowest, SEPARATORS[1]) > width && fit.visible.length > 1)
    fit.visible = fit.visible.slice(0, -1);
  const natural = (index: number) => widths[index]!;
  if (total(natural, fit.separator) > width) fit.separator = SEPARATORS[1];
  shrink(columns, widths, fit.visible, total(natural, fit.separator) - width);
  cutToWidths(matrix, columns, widths, fit.visible, wrapLoaded);
  return fit;
}

/** The narrowest a shrinkable column gets: its minimum, its header, or its natural width if less. */
function floor(column: Column, natural: number): number {
  return Math.min(natural, Math.max(column.min!, displayWidth(column.header)));
}

/** Takes `over` cells, one at a time, from the widest text column still above its minimum. */
function shrink(columns: Column[], widths: number[], visible: number[], over: number): void {
  const shrinkable = visible.filter((index) => columns[index]!.min !== undefined);
  const floors = new Map(shrinkable.map((index) => [index, floor(columns[index]!, widths[index]!)]));
  for (; over > 0; over--) {
    const above = shrinkable.filter((index) => widths[index]! > floors.get(index)!);
    const wrapping = above.filter((index) => columns[index]!.wrap);
    const widest = (wrapping.length ? wrapping : above).sort((x, y) => widths[y]! - widths[x]!)[0];
    if (widest === undefined) break;
    widths[widest]!--;
  }
}

/** Cuts the cells of the shrinkable columns to their widths; a wrapping one only when its layout was not loaded (a watch's redraw). */
function cutToWidths(
  matrix: Cell[][],
  columns: Column[],
  widths: number[],
  visible: number[],
  wrapLoaded: boolean,
): void {
  for (const i of visible) {
    if (columns[i]!.wrap ? wrapLoaded : columns[i]!.min === undefined) continue;
    for (const row of matrix) row[i]!.text = truncateWidth(row[i]!.text, widths[i]!);
  }
}
