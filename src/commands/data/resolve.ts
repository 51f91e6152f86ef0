import type { Selector } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { CliError, UsageError } from "../../errors.js";
import {
  ageOf,
  INDEX_CHAINS,
  indexSource,
  loadIndex,
  SANDBOX_SOURCE,
  type TokenIndex,
  tokensWithTicker,
} from "../../token-index/store.js";

// What the local token index (directory --sync) adds to --tickers: a note on stderr for a ticker
// that several tokens share, and with --resolve, the tickers turned into addresses offline, so the
// request selects by address. Reading the index never makes a request.

const MAX_NAMED = 10;

/**
 * With an index for the chain, synced from the API this run asks: names each shared ticker on
 * stderr with its tokens' addresses, and with `resolve` returns a selector by address in place of
 * the tickers. An index of another API (the sandbox's, another --base-url) is never used.
 */
export async function applyTokenIndex(
  ctx: RunContext,
  chain: string | undefined,
  selector: Selector | undefined,
  resolve: { addressParam: string | undefined } | undefined,
): Promise<Selector | undefined> {
  const { io } = ctx;
  if (resolve && selector?.kind !== "ticker") throw new UsageError("--resolve goes with --tickers");
  if (selector?.kind !== "ticker") return selector;
  const indexChain = INDEX_CHAINS.find((known) => known === chain);
  const source = await indexSource(ctx);
  const loaded = indexChain ? loadIndex(indexChain, io.env, source === SANDBOX_SOURCE) : undefined;
  // A damaged index, or one another user could have written, is never used; said once, on stderr.
  if (loaded?.state === "damaged" || loaded?.state === "untrusted") {
    const why = loaded.state === "untrusted" ? `not used: ${loaded.reason}` : loaded.reason;
    if (resolve) throw new UsageError(`--resolve: ${why}`);
    io.warn(why);
  }
  let index: TokenIndex | undefined = loaded?.state === "ok" ? loaded.index : undefined;
  if (index && index.source !== source) {
    if (resolve) {
      throw new UsageError(
        `--resolve: the ${index.chain} token index was synced from ${index.source}, not ${source}; run 'tokenintel directory --sync -c ${index.chain}' against it first`,
      );
    }
    index = undefined;
  }
  if (resolve) {
    if (!resolve.addressParam) throw new UsageError("--resolve: this command cannot select by address");
    if (!index) {
      throw new UsageError(
        `--resolve needs the token index of ${chain ?? "the chain"}: run 'tokenintel directory --sync -c ${chain ?? "base"}' first`,
      );
    }
  }
  if (!index) return selector;
  const addresses: string[] = [];
  const unknown: string[] = [];
  for (const ticker of selector.items) {
    const tokens = tokensWithTicker(index, ticker.replace(/^\$/, ""));
    if (tokens.length > 1) {
      const named = tokens
        .slice(0, MAX_NAMED)
        .map(([, name, address]) => `${address || "(no address)"} (${name})`)
        .join(", ");
      const more = tokens.length > MAX_NAMED ? ` and ${tokens.length - MAX_NAMED} more` : "";
      io.warn(
        `ticker ${ticker} is shared by ${tokens.length} tokens on ${index.chain}: ${named}${more}${resolve ? " (all of them are requested)" : "; use --addresses to pick one"}`,
      );
    }
    if (!tokens.length) unknown.push(ticker);
    for (const [, , address] of tokens) if (address && !addresses.includes(address)) addresses.push(address);
  }
  if (!resolve) return selector;
  const age = `synced ${ageOf(index.syncedAt)} ago`;
  if (unknown.length) io.warn(`not in the ${index.chain} token index (${age}): ${unknown.join(", ")}`);
  if (!addresses.length) {
    throw new CliError(
      `--resolve: none of the tickers is in the ${index.chain} token index (${age}); run 'tokenintel directory --sync -c ${index.chain}' to refresh it`,
    );
  }
  return { kind: "address", param: resolve.addressParam!, items: addresses };
}
