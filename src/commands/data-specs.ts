import { AGENT_RECORD, DIRECTORY_RECORD, MARKET_RECORD, TA_RECORD } from "../api/fields.js";
import {
  AGENT_COLUMNS,
  DIRECTORY_COLUMNS,
  MARKET_COLUMNS,
  TA_COLUMNS,
  taColumns,
} from "../output/columns.js";
import type { DataCommandSpec } from "./data-command.js";

// One entry per GET endpoint of the spec (§4): where it lives, what it returns, how it selects.

export const market: DataCommandSpec = {
  name: "market",
  endpoint: { path: "/v1/crypto-market/", kind: "market", pageSize: 30 },
  shape: MARKET_RECORD,
  table: { views: MARKET_COLUMNS, defaultView: "overview" },
  selectors: { ticker: "token_tickers", address: "token_addresses", id: "token_ids" },
  chainRequired: true,
  emptyMessage: "No tokens matched.",
};

export const directory: DataCommandSpec = {
  name: "directory",
  endpoint: { path: "/v1/crypto-metainfo", kind: "directory", pageSize: 100, keyOptional: true },
  shape: DIRECTORY_RECORD,
  table: { views: { default: DIRECTORY_COLUMNS }, defaultView: "default" },
  selectors: { address: "token_addresses" },
  chainRequired: true,
  emptyMessage: "No tokens matched.",
};

export const agents: DataCommandSpec = {
  name: "agents",
  endpoint: { path: "/v1/agents", kind: "agents", pageSize: 30 },
  shape: AGENT_RECORD,
  table: { views: { default: AGENT_COLUMNS }, defaultView: "default" },
  selectors: { ticker: "agent_tickers" },
  chainRequired: true,
  emptyMessage: "No agent tokens matched.",
};

export const ta: DataCommandSpec = {
  name: "ta",
  endpoint: { path: "/v1/token-ta", kind: "ta", pageSize: 30 },
  shape: TA_RECORD,
  table: { views: { default: TA_COLUMNS }, defaultView: "default", grid: taColumns },
  selectors: { ticker: "token_tickers", address: "token_addresses" },
  chainRequired: false,
  emptyMessage: "No tokens matched.",
};
