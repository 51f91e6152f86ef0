import { INDEX_CHAINS, type IndexChain, readIndex } from "../../token-index/store.js";

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
): string[] {
  if (what !== "tickers") return [];
  const named = INDEX_CHAINS.find((c) => c === chain?.toLowerCase());
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
