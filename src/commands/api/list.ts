import { ENDPOINTS, type EndpointSpec } from "../../contract/endpoints.js";
import { alignColumns } from "../../output/width.js";

// `tokenintel api --list`: the registry (contract/endpoints.ts) as a table: every endpoint the
// provider documents, its method, its paths (the newer generation's where the docs renamed it), its
// price per call, and the tokenintel command that reads it (or "api" when none does).

const HEADERS = ["PATH", "NEWER PATH", "METHOD", "USDC", "COMMAND"] as const;

/** One row per endpoint, in the registry's order. */
export function endpointRows(): string[][] {
  return Object.values(ENDPOINTS as Record<string, EndpointSpec>).map((entry) => [
    entry.path,
    entry.newerPath ?? "-",
    entry.method,
    entry.price,
    typeof entry.command === "string" ? [entry.command, entry.commandFlag].filter(Boolean).join(" ") : "api",
  ]);
}

/** The rows under their headers, each column as wide as its widest cell. */
export function endpointListing(): string {
  const rows = [[...HEADERS], ...endpointRows()];
  return `${alignColumns(rows)}\n`;
}
