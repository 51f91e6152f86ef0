import { DIRECTORY_RECORD } from "../../api/fields.js";
import { col } from "../../output/columns.js";
import { PAGE_SIZES } from "../../spec/api.js";
import type { DataCommandSpec, TableLayout } from "../data/spec.js";

const COLUMNS: TableLayout = {
  columns: [
    col("SYMBOL", "symbol", "text", { max: 12, min: 4 }),
    col("NAME", "name", "text", { max: 24, min: 6 }),
    col("CHAIN", "chain", "text"),
    col("ECOSYSTEM", "ecosystem", "text", { max: 12, min: 6 }),
    col("ADDRESS", "address", "text", { max: 44, min: 14 }),
  ],
  wide: [col("ID", "id", "text", { max: 24, min: 8 })],
};

export const DIRECTORY: DataCommandSpec = {
  name: "directory",
  endpoint: {
    path: "/v1/crypto-metainfo",
    kind: "directory",
    pageSize: PAGE_SIZES.directory,
    keyOptional: true,
  },
  shape: DIRECTORY_RECORD,
  table: { views: { default: COLUMNS }, defaultView: "default" },
  selectors: { address: "token_addresses" },
  chainRequired: true,
  emptyMessage: "No tokens matched.",
};
