import type { Requester } from "../../api/pager.js";
import { PageCeilingError } from "../../api/pager.js";
import { type RecordQuery, streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { ProgressLine } from "../../output/progress.js";
import { parsePaymentFlags } from "../../payment/options.js";
import {
  INDEX_CHAINS,
  type IndexChain,
  type IndexEntry,
  indexSource,
  prepareIndexDir,
  SANDBOX_SOURCE,
  writeIndex,
} from "../../token-index/store.js";
import { DIRECTORY } from "./definition.js";
import type { DIRECTORY_FLAGS } from "./index.js";

// `directory --sync`: the whole directory of a chain (both without --chain) stored as the local
// token index, for ticker completion, --resolve and the shared-ticker note. A chain's index is
// replaced only once its every page has arrived: a failed sync leaves the previous one as it was.

/** The longest text kept per field: the index feeds a shell's completion. */
const MAX_FIELD = 200;

const text = (value: unknown): string =>
  typeof value === "string" || typeof value === "number" ? String(value).slice(0, MAX_FIELD) : "";

/** A directory record as an index entry; undefined for one without a symbol. */
export function entryOf(record: unknown): IndexEntry | undefined {
  if (!record || typeof record !== "object") return undefined;
  const r = record as Record<string, unknown>;
  const symbol = text(r.symbol).trim();
  if (!symbol) return undefined;
  return [symbol, text(r.name), text(r.address), text(r.id), text(r.ecosystem)];
}

const NOT_WITH_SYNC = [
  "addresses",
  "ecosystem",
  "limit",
  "page",
  "sort",
  "where",
  "strict",
  "columns",
  "fields",
  "output",
  "json",
  "ndjson",
  "wide",
] as const;

export async function runSync(ctx: RunContext, opts: FlagValues<typeof DIRECTORY_FLAGS>): Promise<void> {
  refuseOthers(opts);
  const chains: readonly IndexChain[] = opts.chain ? [opts.chain] : INDEX_CHAINS;
  const payment = parsePaymentFlags(ctx.io, opts);
  const client = await ctx.client({
    keyRequired: false,
    payment,
    estimate: { requests: undefined, exact: false },
  });
  const queryFor = (chain: IndexChain): RecordQuery => ({
    endpoint: DIRECTORY.endpoint,
    query: [["chain", chain]],
    maxPages: opts.maxPages,
    window: ctx.settings.concurrency * 2,
    speculate: payment ? 1 : ctx.settings.concurrency,
  });
  if (payment?.dryRun) {
    const [{ planPayment }, { firstRequest }] = await Promise.all([
      import("../../payment/dry-run.js"),
      import("../../api/records.js"),
    ]);
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, firstRequest(queryFor(chains[0]!)))}`);
    return;
  }
  const source = await indexSource(ctx);
  // A folder that cannot take the index fails now, not after every page was downloaded.
  prepareIndexDir(ctx.io.env, source === SANDBOX_SOURCE);
  for (const chain of chains) {
    ctx.io.info(`token index: syncing the ${chain} directory...`);
    const { tokens, pages } = await readDirectory(ctx, client, queryFor(chain), chain, opts.maxPages);
    const file = writeIndex(
      { version: 1, chain, syncedAt: new Date().toISOString(), source, tokens },
      ctx.io.env,
    );
    const shared = sharedTickers(tokens);
    const note = shared ? `; ${shared} tickers are shared by several tokens` : "";
    ctx.io.info(
      `token index: ${chain}: ${tokens.length.toLocaleString("en-US")} tokens from ${pages} page${pages === 1 ? "" : "s"}${note} (${file})`,
    );
  }
}

/** --sync stores the whole directory: the flags that would narrow or print it are refused. */
function refuseOthers(opts: FlagValues<typeof DIRECTORY_FLAGS>): void {
  for (const name of NOT_WITH_SYNC) {
    if (opts[name] !== undefined && opts[name] !== false) {
      const flag = `--${name.replace(/[A-Z]/g, (capital) => `-${capital.toLowerCase()}`)}`;
      throw new UsageError(
        `--sync stores the whole directory in the token index; it cannot be combined with ${flag}`,
      );
    }
  }
}

/** One chain's directory, every page, as index entries; the index is left as it was on a failure. */
async function readDirectory(
  ctx: RunContext,
  client: Requester,
  query: RecordQuery,
  chain: IndexChain,
  maxPages: number | undefined,
): Promise<{ tokens: IndexEntry[]; pages: number }> {
  const progress = new ProgressLine(ctx.io, ctx.io.stderrIsTTY);
  let pages = 0;
  query.onProgress = (step) => {
    pages = step.done;
    progress.update(step);
  };
  query.onRepeat = (note) => ctx.io.warn(note);
  const tokens: IndexEntry[] = [];
  try {
    for await (const batch of streamRecords(client, query))
      for (const record of batch) {
        const entry = entryOf(record);
        if (entry) tokens.push(entry);
      }
  } catch (error) {
    if (error instanceof PageCeilingError)
      throw new UsageError(
        `directory --sync: the ${chain} directory has more than ${maxPages ?? "the"} pages allowed; the index was not changed (raise --max-pages)`,
      );
    throw error;
  } finally {
    progress.clear();
  }
  return { tokens, pages };
}

/** How many tickers more than one token carries. */
function sharedTickers(tokens: readonly IndexEntry[]): number {
  const count = new Map<string, number>();
  for (const [symbol] of tokens) count.set(symbol.toLowerCase(), (count.get(symbol.toLowerCase()) ?? 0) + 1);
  return [...count.values()].filter((times) => times > 1).length;
}
