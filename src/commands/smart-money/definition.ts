import { ENDPOINTS } from "../../contract/endpoints.js";
import { FLOW_WINDOWS } from "../../contract/shapes.js";
import { subtractDecimals } from "../../numbers/decimal.js";
import { identity } from "../../output/column-sets.js";
import { type Column, cellValue, col } from "../../output/columns.js";
import { formatCompact } from "../../output/format.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";

// smart-money's flow board: per token, the top 50 smart-money wallets' net inflow and outflow in
// USD over 24h, 7d and 30d, and the net of the two (inflow − outflow, exact), signed and coloured.
// --wide adds the token amounts. The records are printed as sent in JSON: the net is the table's.

type Window = (typeof FLOW_WINDOWS)[number];
const label = (window: Window) => window.toUpperCase();

const usdIn = (window: Window) => col(`IN ${label(window)}`, `net_inflow.usd_value_${window}`, "usd");
const usdOut = (window: Window) => col(`OUT ${label(window)}`, `net_outflow.usd_value_${window}`, "usd");

/** inflow − outflow in USD: "+$1.2M" up, "-$300K" down, "-" when either is missing. */
function net(window: Window): Column {
  const paths = [`net_inflow.usd_value_${window}`, `net_outflow.usd_value_${window}`];
  return col(`NET ${label(window)}`, paths, "usd", {
    compute: (record) => {
      const diff = subtractDecimals(cellValue(record, usdIn(window)), cellValue(record, usdOut(window)));
      if (diff === undefined) return { text: "-" };
      const text = formatCompact(diff, "$");
      if (/^-?\$0$/.test(text) || /^0*\.?0*$/.test(diff.replace("-", ""))) return { text };
      return diff.startsWith("-") ? { text, tone: "down" } : { text: `+${text}`, tone: "up" };
    },
  });
}

const tokens = (window: Window) => [
  col(`TOK IN ${label(window)}`, `net_inflow.token_${window}`, "amount"),
  col(`TOK OUT ${label(window)}`, `net_outflow.token_${window}`, "amount"),
];

const VIEWS: Record<(typeof ENDPOINTS)["smart-money"]["views"][number], TableLayout> = {
  flows: {
    columns: [
      identity.symbol,
      ...FLOW_WINDOWS.flatMap((window) => [usdIn(window), usdOut(window), net(window)]),
    ],
    wide: [...FLOW_WINDOWS.flatMap(tokens), col("ADDRESS", ["token_address"], "text", { max: 44, min: 14 })],
  },
};

export const SMART_MONEY: DataCommandDefinition = dataCommand(ENDPOINTS["smart-money"], {
  views: VIEWS,
  emptyMessage: "No smart-money flows for these tokens.",
});
