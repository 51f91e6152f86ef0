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
  return columns.map((column, c) => {
    const header = displayWidth(column.header);
    return DECIMAL_ALIGNED.has(column.format)
      ? alignDecimals(matrix, c, header)
      : widestCell(matrix, c, header);
  });
}

function widestCell(matrix: Cell[][], c: number, width: number): number {
  for (const row of matrix) width = Math.max(width, displayWidth(row[c]!.text));
  return width;
}

/** Pads column c's cells to one width left of the point and one right of it; the column's width. */
function alignDecimals(matrix: Cell[][], c: number, header: number): number {
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
  columns.forEach((column, i) => {
    if (column.wrap && column.max)
      widths[i] = Math.min(widths[i]!, Math.max(column.max, displayWidth(column.header)));
  });
  const fit: Fit = { visible: columns.map((_, i) => i), separator: SEPARATORS[0] };
  const total = (each: (i: number) => number, separator: string) =>
    fit.visible.reduce((sum, i) => sum + each(i), 0) + separator.length * (fit.visible.length - 1);
  const narrowest = (i: number) =>
    columns[i]!.min === undefined ? widths[i]! : floor(columns[i]!, widths[i]!);
  // Only columns that cannot fit at all are dropped: a text column gives up width before a column goes.
  while (total(narrowest, SEPARATORS[1]) > width && fit.visible.length > 1)
    fit.visible = fit.visible.slice(0, -1);
  const natural = (i: number) => widths[i]!;
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
  const shrinkable = visible.filter((i) => columns[i]!.min !== undefined);
  const floors = new Map(shrinkable.map((i) => [i, floor(columns[i]!, widths[i]!)]));
  for (; over > 0; over--) {
    const above = shrinkable.filter((i) => widths[i]! > floors.get(i)!);
    const wrapping = above.filter((i) => columns[i]!.wrap);
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
