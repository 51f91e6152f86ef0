import { blue, colored, cyan, green, magenta, red, yellow } from "asciichart";
import { formatPercent, toDecimalNumber } from "../../output/format.js";
import { displayWidth, padStartWidth, truncateWidth } from "../../output/width.js";
import { sanitizeInline } from "../../terminal/sanitize.js";
import { type Label, type Metric, metricOf, percentAxis } from "./axis.js";
import { axisStep, drawChart, type Point, plotLines, resample, widestLabel } from "./chart.js";
import type { HistorySeries } from "./run.js";

// The charts `history` draws on a terminal: one per token (or one for all with --normalize), each
// under a summary line of the period: first and last value, change, high and low with their days.

export interface RenderOptions {
  metric?: Metric;
  normalize?: boolean;
  height?: number;
  columns: number;
  rows: number | undefined;
  color: boolean;
}

/**
 * A series' values, read as tables read numbers (a decimal string or number: never hex, NaN or
 * Infinity), and its dates made inert for the terminal like every server string printed.
 */
function pointsOf(series: HistorySeries, field: string): Point[] {
  return series.days.map((day) => ({
    date: sanitizeInline(String(day.date_time)),
    value: toDecimalNumber(day[field]),
  }));
}

/** `BAKO price 2025-11-25 → 2026-11-25 (366 days): $70.12 → $73.74 (+5.16%) · high $80.01 on … · low …` */
function summary(series: HistorySeries, points: Point[], label: Label, metric: string): string {
  const known = points.filter((p) => p.value !== undefined);
  const name = sanitizeInline(series.token_symbol ?? series.named);
  if (known.length === 0) return `${name}: no ${metric} values in this period`;
  const first = known[0]!;
  const last = known[known.length - 1]!;
  const high = known.reduce((highest, point) => (point.value! > highest.value! ? point : highest));
  const low = known.reduce((lowest, point) => (point.value! < lowest.value! ? point : lowest));
  const ratio = first.value ? ((last.value! - first.value) / first.value) * 100 : Number.NaN;
  const change = Number.isFinite(ratio) ? formatPercent(ratio.toFixed(2)) : "-";
  const missing = points.length - known.length;
  return [
    `${name} ${metric} ${first.date} → ${last.date} (${points.length} day${points.length === 1 ? "" : "s"}${missing ? `, ${missing} missing` : ""})`,
    `${label(first.value!)} → ${label(last.value!)} (${change})`,
    `high ${label(high.value!)} on ${high.date}`,
    `low ${label(low.value!)} on ${low.date}`,
  ].join(" · ");
}

/** The summary on one line when it fits, else broken at its " · " parts, each line cut to the width. */
function fitted(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  return line.split(" · ").map((part, i) => truncateWidth(i ? `· ${part}` : part, width));
}

export function renderCharts(all: HistorySeries[], options: RenderOptions): string {
  if (all.length === 0) return "No history to draw.\n";
  const metric = metricOf(options.metric);
  const width = Math.max(20, options.columns);
  const several = all.length > 1 && !options.normalize;
  const fit = options.rows ? Math.max(4, options.rows - 4) : 12;
  const height = options.height ?? Math.min(several ? 8 : 12, fit);
  const out: string[] = [];
  if (options.normalize && all.length > 1) {
    out.push(...normalized(all, metric.field, width, height, options.color));
  } else {
    for (const series of all) {
      const points = pointsOf(series, metric.field);
      const label = metric.axis(
        series.days.map((d) => d[metric.field]),
        stepOf(points, height),
      );
      out.push(...fitted(summary(series, points, label, metric.name), width));
      out.push(...drawChart(points, { width, height, label }), "");
    }
  }
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}

/** How far apart the chart's rows stand, from the values it draws. */
function stepOf(points: readonly Point[], height: number): number {
  const known = points.flatMap((p) => (p.value === undefined ? [] : [p.value]));
  return known.length ? axisStep(Math.min(...known), Math.max(...known), height) : 0;
}

const COLORS = [cyan, magenta, yellow, green, blue, red];
/** Without colour, each token's line is drawn with its own character, the legend naming it. */
const MARKS = ["*", "o", "x", "#", "+", "%", "@", "=", "&", "~"];

/** Several tokens in one chart, each as percent change from its first day, a colour each and a legend. */
function normalized(
  all: HistorySeries[],
  field: string,
  width: number,
  height: number,
  color: boolean,
): string[] {
  const dates = [
    ...new Set(all.flatMap((history) => history.days.map((day) => sanitizeInline(String(day.date_time))))),
  ].sort();
  const lines = all.map((history) => {
    const byDate = new Map(pointsOf(history, field).map((point) => [point.date, point.value]));
    const base = dates.map((date) => byDate.get(date)).find((value) => value !== undefined && value !== 0);
    return dates.map((date) => {
      const figure = byDate.get(date);
      const change = figure === undefined || base === undefined ? undefined : ((figure - base) / base) * 100;
      return { date, value: change !== undefined && Number.isFinite(change) ? change : undefined };
    });
  });
  const known = lines.flatMap((line) =>
    line.filter((point) => point.value !== undefined).map((point) => point.value!),
  );
  if (known.length === 0) return ["(no values to draw)"];
  const [low, high] = [Math.min(...known), Math.max(...known)];
  if (!Number.isFinite(high - low)) return ["(the values are too far apart to draw)"];
  const percentLabel = percentAxis(axisStep(low, high, height));
  const labelWidth = widestLabel(low, high, percentLabel);
  const plotWidth = Math.max(2, width - labelWidth - 1);
  // A day a token lacks is bridged here (lines of several colours cannot be cleared column by column).
  const series = lines.map((line) => {
    const sampled = resample(line, plotWidth);
    let last = sampled.find((point) => point.value !== undefined)?.value ?? 0;
    return sampled.map((point) => {
      if (point.value !== undefined) last = point.value;
      return last;
    });
  });
  const chart = plotLines(series, {
    height: Math.max(1, height - 1),
    offset: 2,
    format: (value: number) => padStartWidth(percentLabel(low === high ? low : value), labelWidth),
    ...(color ? { colors: COLORS } : { marks: MARKS }),
  });
  const names = all.map((history) => sanitizeInline(history.token_symbol ?? history.named));
  const legend = color
    ? names.map((n, i) => colored(`━ ${n}`, COLORS[i % COLORS.length])).join("  ")
    : names.map((n, i) => `${MARKS[i % MARKS.length]} ${n}`).join("  ");
  const first = dates[0]!;
  const last = dates[dates.length - 1]!;
  const gap = Math.max(1, series[0]!.length - first.length - last.length);
  return [
    truncateWidth(`change from each token's first day, ${first} → ${last}:`, width),
    legend,
    ...chart,
    `${" ".repeat(labelWidth)}${first}${" ".repeat(gap)}${last}`,
  ];
}
