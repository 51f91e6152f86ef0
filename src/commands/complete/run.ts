import { ENDPOINTS, type EndpointSpec } from "../../contract/endpoints.js";
import { dotPaths, type Shape } from "../../contract/shapes.js";
import { INDEX_CHAINS, type IndexChain, readIndex } from "../../token-index/store.js";

/** The record shape of each command whose flags take dot paths: its registry entry's record's. */
export const PATH_SHAPES: Record<string, Shape> = Object.fromEntries(
  Object.values(ENDPOINTS as Record<string, EndpointSpec>).flatMap((entry) =>
    typeof entry.command === "string" && entry.shape ? [[entry.command, entry.shape]] : [],
  ),
);

/**
 * The dot paths of a command's records that go on from `prefix`, one level at a time: a section
 * ends in a dot ("token_metrics."), a field does not. After --sort's colon, the directions; after
 * --where's operator, nothing (a value is the user's to type).
 */
export function completePaths(prefix: string, command: string | undefined): string[] {
  // The command word is the shell's text: only a command of the table, never `constructor`.
  const shape =
    command !== undefined && Object.hasOwn(PATH_SHAPES, command) ? PATH_SHAPES[command] : undefined;
  if (!shape) return [];
  const colon = prefix.indexOf(":");
  if (colon >= 0)
    return [`${prefix.slice(0, colon)}:asc`, `${prefix.slice(0, colon)}:desc`].filter((direction) =>
      direction.startsWith(prefix),
    );
  if (/[<>=!~]/.test(prefix)) return [];
  const depth = prefix.split(".").length;
  const all = dotPaths(shape);
  const sections = new Set(all.map((path) => path.slice(0, path.lastIndexOf("."))).filter(Boolean));
  return all
    .filter((path) => path.split(".").length === depth && path.toLowerCase().startsWith(prefix.toLowerCase()))
    .map((path) => (sections.has(path) ? `${path}.` : path));
}

/**
 * The tickers of the index that start with `prefix` (case-insensitive), each once, written as a
 * --tickers list item (a comma inside a ticker as \,). Both chains unless one is named; the
 * sandbox's index when the line completed has --sandbox.
 */
export function completeValues(
  what: string,
  prefix: string,
  chain: string | undefined,
  env: NodeJS.ProcessEnv,
  sandbox = false,
  command?: string,
): string[] {
  if (what === "paths") return completePaths(prefix, command);
  if (what !== "tickers") return [];
  const named = INDEX_CHAINS.find((known) => known === chain?.toLowerCase());
  const chains: readonly IndexChain[] = named ? [named] : INDEX_CHAINS;
  const wanted = prefix.replace(/^\$/, "").toLowerCase();
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of chains) {
    for (const [symbol] of readIndex(c, env, sandbox)?.tokens ?? []) {
      // Only printable, single-line tickers: a completion is typed into the user's shell.
      if (!symbol || /[\u0000-\u001f\u007f-\u009f]/.test(symbol)) continue;
      if (!symbol.toLowerCase().startsWith(wanted) || seen.has(symbol)) continue;
      seen.add(symbol);
      out.push(symbol.replace(/,/g, "\\,"));
    }
  }
  return out.sort();
}
