import { ENDPOINTS } from "../../contract/endpoints.js";
import { INDICATOR_INTERVALS, TA_INTERVALS } from "../../contract/shapes.js";
import { getPath } from "../../json/dot-paths.js";
import { identity, updated } from "../../output/column-sets.js";
import { type CellFormat, type Column, col } from "../../output/columns.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";
import type { TaView } from "./views.js";

// The TA grid: tokens down, the intervals the server sent across (none invented). A view picks the
// indicator in the cells. Records come documented (indicators per interval, changes in
// token_metrics) or flat (one set of indicators, changes at the top level): both are read.

const sent = (records: unknown[], column: Column) =>
  records.some((r) => column.paths.some((p) => getPath(r, p) !== undefined));

/** The columns of `make` for every interval some record carries. */
function present(records: unknown[], intervals: readonly string[], make: (i: string) => Column): Column[] {
  return intervals.map(make).filter((column) => sent(records, column));
}

// Intervals are written as the service writes them (1m, 1h, 1d, 1w, 30d): "1M" next to "30D" read
// as a month.
const change = (interval: string) =>
  col(
    interval,
    [`token_metrics.price_change_percentage_${interval}`, `price_change_percentage_${interval}`],
    "percent",
  );

const FORMATS: Record<Exclude<TaView, "change">, CellFormat> = {
  rsi: "rsi",
  support: "price",
  resistance: "price",
  sma: "price",
};

// An indicator's columns, one per interval and the one-value form, are one quantity: one precision.
const indicator =
  (kind: Exclude<TaView, "change">, label = (interval: string) => interval) =>
  (interval: string) =>
    col(label(interval), `technical_indicators.${kind}_${interval}`, FORMATS[kind], { group: kind });

/**
 * The one-value form of an indicator (flat records), or its 1d value (documented ones), headed for
 * what it is: "RSI" for the one value, "RSI 1d" when the records carry it per interval.
 */
const overall = (kind: Exclude<TaView, "change">, records: unknown[]) => {
  const flat = col(kind.toUpperCase(), `technical_indicators.${kind}`, FORMATS[kind]);
  const daily = col(`${kind.toUpperCase()} 1d`, `technical_indicators.${kind}_1d`, FORMATS[kind]);
  return sent(records, flat) || !sent(records, daily) ? flat : daily;
};

const WIDE_EXTRA = [identity.name, updated];

function indicatorView(kind: Exclude<TaView, "change">): TableLayout {
  return {
    columns: (records) => {
      const grid = present(records, INDICATOR_INTERVALS, indicator(kind));
      const flat = col(kind.toUpperCase(), `technical_indicators.${kind}`, FORMATS[kind], { group: kind });
      return [identity.symbol, ...grid, ...(grid.length === 0 || sent(records, flat) ? [flat] : [])];
    },
    wide: WIDE_EXTRA,
  };
}

const VIEWS: Record<TaView, TableLayout> = {
  change: {
    columns: (records) => [
      identity.symbol,
      ...present(records, TA_INTERVALS, change),
      overall("rsi", records),
    ],
    // Several indicators per interval: the RSI of each one beside the changes, but the one the
    // view already shows (RSI 1d) once.
    wide: (records) => {
      const shown = overall("rsi", records).paths[0];
      const perInterval = present(
        records,
        INDICATOR_INTERVALS,
        indicator("rsi", (interval) => `RSI ${interval}`),
      );
      return [...perInterval.filter((column) => column.paths[0] !== shown), ...WIDE_EXTRA];
    },
  },
  rsi: indicatorView("rsi"),
  support: indicatorView("support"),
  resistance: indicatorView("resistance"),
  sma: indicatorView("sma"),
};

export const TA: DataCommandDefinition = dataCommand(ENDPOINTS.ta, {
  views: VIEWS,
  emptyMessage: "No tokens matched.",
});
