import { plot } from "asciichart";
import { displayWidth, padStartWidth, truncateWidth } from "../../output/width.js";

// A daily series as a line chart for a terminal, drawn by asciichart: sized to the width given
// (a series longer than the plot is resampled into buckets, never cut), price labels on the y axis,
// the first and last dates under it, and a missing day left as a gap in the line, never a zero.

export interface Point {
  date: string;
  /** undefined: the day is missing from the series. */
  value: number | undefined;
}

export interface ChartOptions {
  width: number;
  /** Rows of the plot itself. */
  height: number;
  /** How a y-axis label is written (the metric's format). */
  label: (value: number) => string;
}

/**
 * At most `width` points: each bucket of consecutive days stands as its last day's value (the
 * close), a bucket with no value at all as a gap. Shorter series are returned as they are.
 */
export function resample(points: readonly Point[], width: number): Point[] {
  if (points.length <= width) return [...points];
  const out: Point[] = [];
  for (let b = 0; b < width; b++) {
    const start = Math.floor((b * points.length) / width);
    const end = Math.floor(((b + 1) * points.length) / width);
    let last: Point | undefined;
    for (let i = start; i < end; i++) if (points[i]!.value !== undefined) last = points[i];
    out.push(last ?? { date: points[end - 1]!.date, value: undefined });
  }
  return out;
}

/** The values with each gap bridged by a straight line (for drawing; the gap's columns are then cleared). */
function bridged(points: readonly Point[]): number[] {
  const values = points.map((p) => p.value);
  const known = values.flatMap((v, i) => (v === undefined ? [] : [i]));
  return values.map((value, index) => {
    if (value !== undefined) return value;
    const before = known.filter((k) => k < index).pop();
    const after = known.find((k) => k > index);
    if (before === undefined) return values[after!]!;
    if (after === undefined) return values[before]!;
    const t = (index - before) / (after - before);
    return values[before]! + t * (values[after]! - values[before]!);
  });
}

/**
 * How far apart the rows of a chart `height` rows high between min and max stand, as asciichart
 * lays them out (0 for a flat series: one row).
 */
export function axisStep(min: number, max: number, height: number): number {
  const range = max - min;
  if (!(range > 0) || !Number.isFinite(range)) return 0;
  const ratio = Math.max(1, height - 1) / range;
  const rows = Math.abs(Math.round(max * ratio) - Math.round(min * ratio));
  return rows ? range / rows : 0;
}

/** The widest y-axis label between min and max (asciichart labels rows at values in between). */
export function widestLabel(min: number, max: number, label: (x: number) => string): number {
  let widest = 0;
  for (let i = 0; i <= 64; i++) widest = Math.max(widest, displayWidth(label(min + ((max - min) * i) / 64)));
  return widest;
}

/** asciichart's symbols as it reads them: [0] a line's start on the axis, [1] the axis, [4-9] a line's pieces. */
const AXIS = "┤";
const START = "┼";
const PIECES = ["─", "╰", "╭", "╮", "╯", "│"];
type Symbols = [string, string, string, string, string, string, string, string, string, string];

export interface PlotOptions {
  /** Rows of the plot, less one (asciichart's height). */
  height: number;
  offset: number;
  format: (x: number) => string;
  /** asciichart's colour of each series, or none. */
  colors?: string[];
  /** Without colour: the one character each series is drawn with (its legend shows it), in turn. */
  marks?: readonly string[];
}

/**
 * The row (from the top) where each series starts, as asciichart lays its rows out: rows are
 * counted from the bottom, at `height / range` a unit, from the lowest value's rounded row.
 */
function startRows(series: readonly number[][], height: number): number[] {
  const all = series.flat();
  const [min, max] = [Math.min(...all), Math.max(...all)];
  const ratio = max - min !== 0 ? height / (max - min) : 1;
  const [min2, max2] = [Math.round(min * ratio), Math.round(max * ratio)];
  const rows = Math.abs(max2 - min2);
  return series.map((s) => rows - (Math.round(s[0]! * ratio) - min2));
}

/**
 * Lines drawn by asciichart, each line's start ticked on the axis (┼) where it starts and nowhere
 * else: asciichart also ticks the row it takes for zero, counting from the top the rows it counts
 * from the bottom, so a range across zero showed a tick where no line starts. With `marks`, each
 * series is drawn alone with its own character, on the same rows, and the drawings laid over each
 * other in order (a later series over an earlier one where they meet).
 */
export function plotLines(series: number[][], options: PlotOptions): string[] {
  const { height, offset, format, colors, marks } = options;
  const symbols = (mark?: string): Symbols => {
    const [a, b, c, d, e, f] = mark ? PIECES.map(() => mark) : PIECES;
    return [AXIS, AXIS, "╶", "╴", a!, b!, c!, d!, e!, f!];
  };
  let lines: string[];
  if (marks?.length) {
    const all = series.flat();
    const [min, max] = [Math.min(...all), Math.max(...all)];
    const layers = series.map((values, index) =>
      plot(values, { height, offset, format, min, max, symbols: symbols(marks[index % marks.length]) }).split(
        "\n",
      ),
    );
    lines = layers[0]!.map((_, row) => overlay(layers.map((layer) => layer[row]!)));
  } else lines = plot(series, { height, offset, format, colors, symbols: symbols() }).split("\n");
  for (const row of startRows(series, height)) lines[row] = lines[row]!.replace(AXIS, START);
  return lines;
}

/** One line of several drawings of the same rows: each one's characters over the ones before it. */
function overlay(drawings: string[]): string {
  const out = [...drawings[0]!];
  for (const drawing of drawings.slice(1))
    [...drawing].forEach((ch, column) => {
      if (ch !== " ") out[column] = ch;
    });
  return out.join("");
}

/** The chart's lines (no trailing newline), each at most `width` columns wide. */
export function drawChart(points: readonly Point[], options: ChartOptions): string[] {
  const known = points.filter((p) => p.value !== undefined).map((p) => p.value!);
  if (known.length === 0) return ["(no values to draw)"];
  const min = Math.min(...known);
  const max = Math.max(...known);
  // ±1e308 on one axis: no row between them can be labelled (each would read ±Infinity).
  if (!Number.isFinite(max - min)) return ["(the values are too far apart to draw)"];
  const labelWidth = widestLabel(min, max, options.label);
  // asciichart with offset 2 writes each row as: the label, the axis, then one column a point
  // (the step from point x to x + 1 in the column of x), so the line gets what the labels leave.
  const plotWidth = Math.max(2, options.width - labelWidth - 1);
  const sampled = resample(points, plotWidth);
  const start = labelWidth + 1;
  const lines = plotLines([bridged(sampled)], {
    height: Math.max(1, options.height - 1),
    offset: 2,
    // A flat series is one row, which asciichart labels with its row number: label it with the value.
    format: (value: number) => padStartWidth(options.label(min === max ? min : value), labelWidth),
  });
  // A missing day: the steps into and out of it are cleared.
  const cleared = new Set<number>();
  sampled.forEach((point, index) => {
    if (point.value !== undefined) return;
    if (index > 0) cleared.add(start + index - 1);
    cleared.add(start + index);
  });
  const chart = lines.map((line) => [...line].map((ch, col) => (cleared.has(col) ? " " : ch)).join(""));
  const first = points[0]!.date;
  const last = points[points.length - 1]!.date;
  const gap = Math.max(1, sampled.length - first.length - last.length);
  const dates = `${" ".repeat(labelWidth)}${first}${" ".repeat(gap)}${last}`;
  return [...chart, dates].map((line) => truncateWidth(line.trimEnd(), options.width));
}
