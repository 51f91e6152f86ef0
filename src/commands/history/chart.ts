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
  return values.map((v, i) => {
    if (v !== undefined) return v;
    const before = known.filter((k) => k < i).pop();
    const after = known.find((k) => k > i);
    if (before === undefined) return values[after!]!;
    if (after === undefined) return values[before]!;
    const t = (i - before) / (after - before);
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
  const lines = plot(bridged(sampled), {
    height: Math.max(1, options.height - 1),
    offset: 2,
    // A flat series is one row, which asciichart labels with its row number: label it with the value.
    format: (x: number) => padStartWidth(options.label(min === max ? min : x), labelWidth),
  }).split("\n");
  // A missing day: the steps into and out of it are cleared.
  const cleared = new Set<number>();
  sampled.forEach((p, i) => {
    if (p.value !== undefined) return;
    if (i > 0) cleared.add(start + i - 1);
    cleared.add(start + i);
  });
  const chart = lines.map((line) => [...line].map((ch, col) => (cleared.has(col) ? " " : ch)).join(""));
  const first = points[0]!.date;
  const last = points[points.length - 1]!.date;
  const gap = Math.max(1, sampled.length - first.length - last.length);
  const dates = `${" ".repeat(labelWidth)}${first}${" ".repeat(gap)}${last}`;
  return [...chart, dates].map((line) => truncateWidth(line.trimEnd(), options.width));
}
