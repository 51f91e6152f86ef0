import { compactAxis, formatPriceAt, placesToTell, pricePlaces } from "../../output/format.js";

// How a chart writes its numbers: one rule for the whole axis (and the summary above it), chosen from
// the series' own values, with more places while two rows of the axis would read alike.

export type Metric = "price" | "volume" | "mcap";

const METRIC_FIELD = { price: "usd_price", volume: "total_volume", mcap: "market_cap" } as const;

export type Label = (x: number) => string;

/** A value too far apart from the others to draw between (1e308 and -1e308) is no figure: "?". */
const finite =
  (label: Label): Label =>
  (value) =>
    Number.isFinite(value) ? label(value) : "?";

/**
 * The metric's field and its axis: `axis(values, step)` writes every label of a chart whose data
 * are `values` (as the server sent them) and whose rows are `step` apart. A price series that stays
 * at 4.7621 reads $4.7621 (never $5.00); $4.42 beside $4.2934 reads $4.4200.
 */
export function metricOf(metric: Metric | undefined) {
  const name = metric ?? "price";
  return {
    name,
    field: METRIC_FIELD[name],
    axis: (values: readonly unknown[], step: number): Label => {
      if (name !== "price") return finite(compactAxis(values, "$", step));
      const places = Math.max(pricePlaces(values), placesToTell(step));
      return finite((value) => `$${formatPriceAt(value, places)}`);
    },
  };
}

/** Percent change on the normalized chart: 2 places, or as many as rows `step` apart need. */
export function percentAxis(step: number): Label {
  const places = Math.max(2, placesToTell(step));
  return finite((value) => {
    const fixed = value.toFixed(places);
    return /[1-9]/.test(fixed) ? `${value < 0 ? "" : "+"}${fixed}%` : `${fixed.replace("-", "")}%`;
  });
}
