import { TA_INTERVALS, TA_RECORD } from "../../api/fields.js";
import { info, rsi, updated } from "../../output/column-sets.js";
import { type Column, col } from "../../output/columns.js";
import { getPath } from "../../output/paths.js";
import { PAGE_SIZES } from "../../spec/api.js";
import type { DataCommandSpec, TableLayout } from "../data/spec.js";

const t = info("token_info");

/** The TA grid: tokens down, the intervals the server sent across (none invented). */
function taColumns(records: unknown[]): Column[] {
  const present = TA_INTERVALS.filter((i) =>
    records.some((r) => getPath(r, `price_change_percentage_${i}`) !== undefined),
  );
  return [
    t.symbol,
    ...present.map((i) => col(i.toUpperCase(), `price_change_percentage_${i}`, "percent")),
    rsi,
  ];
}
const COLUMNS: TableLayout = { columns: [t.symbol, rsi], wide: [t.name, updated] };

export const TA: DataCommandSpec = {
  name: "ta",
  endpoint: { path: "/v1/token-ta", kind: "ta", pageSize: PAGE_SIZES.ta },
  shape: TA_RECORD,
  table: { views: { default: COLUMNS }, defaultView: "default", grid: taColumns },
  selectors: { ticker: "token_tickers", address: "token_addresses" },
  chainRequired: false,
  emptyMessage: "No tokens matched.",
};
