import { ENDPOINTS } from "../../contract/endpoints.js";
import { col } from "../../output/columns.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";

const COLUMNS: TableLayout = {
  columns: [
    col("SYMBOL", "symbol", "text", { max: 12 }),
    col("NAME", "name", "text", { max: 24, min: 6 }),
    col("CHAIN", "chain", "text"),
    col("ECOSYSTEM", "ecosystem", "text", { max: 12, min: 6 }),
    col("ADDRESS", "address", "text", { max: 44, min: 14 }),
  ],
  wide: [col("ID", "id", "text", { max: 24, min: 8 })],
};

export const DIRECTORY: DataCommandDefinition = dataCommand(ENDPOINTS.directory, {
  views: { default: COLUMNS },
  emptyMessage: "No tokens matched.",
});
