import type { Query } from "../../api/client.js";
import type { Endpoint } from "../../api/pager.js";
import type { FanOutQuery, Selector, SelectorKind } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { MAX_SELECTOR_ITEMS } from "../../contract/api.js";
import { UsageError } from "../../errors.js";
import { type Column, columnsForPaths } from "../../output/columns.js";
import { chooseColumns, type DataCommandDefinition } from "./definition.js";
import { fanOutQuery } from "./fan-out.js";
import type { FieldsSeen } from "./fields-seen.js";
import type { DataOptions } from "./flags.js";
import { expandList } from "./lists.js";
import { checkPaths, parseWhereFlags } from "./path-flags.js";

// parseDataOptions' steps, one a flag group: the tokens (chain, lists, ecosystem), paging, the
// fields and the table's columns, --where, and --watch with what goes with it.

const DEFAULT_WATCH_MS = 10_000;

export const FLAG_FOR: Record<SelectorKind, string> = {
  ticker: "--tickers",
  address: "--addresses",
  id: "--ids",
};
const OPTION_FOR = { ticker: "tickers", address: "addresses", id: "ids" } as const;

export interface Tokens {
  chain: string | undefined;
  selector: Selector | undefined;
  ecosystem: string | undefined;
}

/** The tokens a run names: the chain, one list (matched against the token index), the ecosystem. */
export async function parseTokens(
  ctx: RunContext,
  definition: DataCommandDefinition,
  opts: DataOptions,
): Promise<Tokens> {
  // An endpoint of one chain, or of none, takes no `chain`: the default chain setting is not sent to it.
  const chain =
    definition.onlyOn || definition.noChain ? undefined : await ctx.settings.get("chain", opts.chain);
  if (definition.chainRequired && chain === undefined) {
    throw new UsageError(
      `${definition.name}: --chain is required (base or solana), or set a default with 'tokenintel config set chain base'`,
    );
  }
  let selector = await parseSelector(ctx, definition, opts);
  if (selector) selector.perRequest = definition.perRequest;
  if (selector?.kind === "ticker" || opts.resolve) {
    const { applyTokenIndex } = await import("./resolve.js");
    const resolve = opts.resolve ? { addressParam: definition.selectors.address } : undefined;
    selector = await applyTokenIndex(ctx, chain, selector, resolve);
  }
  const ecosystem = opts.ecosystem?.trim();
  if (ecosystem === "") throw new UsageError("--ecosystem: empty value");
  return { chain, selector, ecosystem };
}

/**
 * The one list given (--tickers, --addresses or --ids, as the endpoint takes them), read whole;
 * `check` reads its list here too.
 */
export async function parseSelector(
  ctx: RunContext,
  definition: Pick<DataCommandDefinition, "name" | "selectors" | "selectorRequired">,
  opts: Pick<DataOptions, "tickers" | "addresses" | "ids">,
): Promise<Selector | undefined> {
  const flags = Object.keys(definition.selectors).map((kind) => FLAG_FOR[kind as SelectorKind]);
  let selector: Selector | undefined;
  for (const [kind, param] of Object.entries(definition.selectors) as Array<[SelectorKind, string]>) {
    const given = opts[OPTION_FOR[kind]];
    if (!given) continue;
    if (selector) throw new UsageError(`use one of ${flags.join(", ")} at a time`);
    selector = { kind, param, items: await expandList(ctx, FLAG_FOR[kind], given, kind === "ticker") };
  }
  // "--tickers"; "--tickers or --addresses"; "--tickers, --addresses or --ids".
  const either = flags.length > 1 ? `${flags.slice(0, -1).join(", ")} or ${flags.at(-1)}` : flags[0];
  if (!selector && definition.selectorRequired)
    throw new UsageError(`${definition.name}: name the tokens with ${either}`);
  return selector;
}

/** --page with a list: a list answered over several requests, or in one page, takes no page number. */
export function checkPaging(page: number | undefined, selector: Selector | undefined): void {
  if (page === undefined || !selector) return;
  const noun = FLAG_FOR[selector.kind].slice(2);
  const most = selector.perRequest ?? MAX_SELECTOR_ITEMS;
  if (selector.items.length > most) {
    throw new UsageError(
      `--page cannot be combined with more than ${most} ${noun} (they are split over several requests)`,
    );
  }
  if (page > 1)
    throw new UsageError(`--page ${page}: a list of ${noun} is answered in one page; leave out --page`);
}

/** --fields (what every format shows) and the paths --columns picks, else the fields. */
export function pickFields(
  definition: DataCommandDefinition,
  opts: DataOptions,
  seen: FieldsSeen,
): { fields: string[] | undefined; chosen: string[] | undefined } {
  const fields = checkPaths(
    "--fields",
    opts.fields === true ? undefined : opts.fields,
    definition.shape,
    definition.name,
    seen,
  );
  return {
    fields,
    chosen: checkPaths("--columns", opts.columns, definition.shape, definition.name, seen) ?? fields,
  };
}

/** The table's columns: the paths chosen, else the --view's own (and its wide ones with --wide). */
export function tableColumns(
  definition: DataCommandDefinition,
  opts: DataOptions,
  chosen: string[] | undefined,
): (records: unknown[]) => Column[] {
  const view = opts.view ?? definition.table.defaultView;
  const layout = definition.table.views[view];
  if (!layout) {
    throw new UsageError(
      `--view: unknown view "${view}" (expected ${Object.keys(definition.table.views).join(", ")})`,
    );
  }
  return (records) => {
    if (chosen) {
      const shown = Object.values(definition.table.views).flatMap((eachLayout) => [
        ...chooseColumns(eachLayout.columns, records),
        ...chooseColumns(eachLayout.wide, records),
      ]);
      return columnsForPaths(chosen, shown);
    }
    const base = chooseColumns(layout.columns, records);
    return opts.wide ? [...base, ...chooseColumns(layout.wide, records)] : base;
  };
}

/** --where as a filter of records; with fields to look for, every record is seen first (fields-seen.ts). */
export async function whereFilter(
  definition: DataCommandDefinition,
  opts: DataOptions,
  seen: FieldsSeen,
): Promise<((record: unknown) => boolean) | undefined> {
  const where = parseWhereFlags(opts.where, definition.shape, definition.name, seen);
  const matches = where
    ? await import("../../query/records.js").then(
        ({ matchesAll }) =>
          (record: unknown) =>
            matchesAll(record, where),
      )
    : undefined;
  return seen.looking ? seen.watching(matches) : matches;
}

interface WatchOptions {
  watchMs: number | undefined;
  watchCount: number | undefined;
  watchChanges: boolean;
  watchStream: boolean;
  watchDiff: boolean;
}

/** --watch and what goes with it (--count, --changes, --diff, which need it). */
export function parseWatch(ctx: RunContext, opts: DataOptions): WatchOptions {
  const given = {
    watchCount: opts.count,
    watchChanges: Boolean(opts.changes),
    watchDiff: Boolean(opts.diff),
  };
  if (opts.watch === undefined) {
    const alone =
      opts.count !== undefined ? "--count" : opts.changes ? "--changes" : opts.diff ? "--diff" : "";
    if (alone) throw new UsageError(`${alone} needs --watch`);
    return { ...given, watchMs: undefined, watchStream: false };
  }
  const watchStream = watchStreams(ctx, opts);
  if (opts.page !== undefined) throw new UsageError("--watch cannot be combined with --page");
  return { ...given, watchMs: opts.watch === true ? DEFAULT_WATCH_MS : opts.watch, watchStream };
}

/** A terminal gets a table redrawn in place; a pipe (or --ndjson) a stream of NDJSON lines. */
function watchStreams(ctx: RunContext, opts: DataOptions): boolean {
  const asked = opts.output ?? (opts.json ? "json" : opts.ndjson ? "ndjson" : undefined);
  const stream = asked === "ndjson" || (!ctx.io.stdoutIsTTY && asked === undefined);
  if (!stream && !ctx.io.stdoutIsTTY)
    throw new UsageError(
      `--watch into a pipe writes NDJSON lines; drop ${opts.output ? `--output ${asked}` : `--${asked}`} or use --ndjson`,
    );
  if (!stream && asked !== undefined && asked !== "table")
    throw new UsageError(`--watch on a terminal shows a table or streams --ndjson; it cannot write ${asked}`);
  return stream;
}

/**
 * The endpoint on the generation of paths the api-paths setting chooses, and the run's fan-out:
 * each value asked (the flag of its parameter's name), with the path that serves it.
 */
export async function endpointFor(
  ctx: RunContext,
  definition: DataCommandDefinition,
  opts: DataOptions,
): Promise<{ endpoint: Endpoint; fanOut: FanOutQuery | undefined }> {
  const generation = await ctx.settings.get("api-paths");
  const endpoint =
    generation === "newer" && definition.newerPath
      ? { ...definition.endpoint, path: definition.newerPath }
      : definition.endpoint;
  const given = definition.fanOut ? (opts as Record<string, unknown>)[definition.fanOut.param] : undefined;
  const fanOut = fanOutQuery(definition, given as string[] | undefined, generation);
  return { endpoint, fanOut };
}

/** The filters sent with every request: chain, ecosystem and the endpoint's own parameters. */
export function queryParams(definition: DataCommandDefinition, opts: DataOptions, tokens: Tokens): Query {
  return [
    ["chain", tokens.chain],
    ["ecosystem", tokens.ecosystem],
    ...Object.entries(definition.params ?? {}).map(
      ([option, param]) =>
        [param, (opts as Record<string, unknown>)[option] as string | undefined] as [
          string,
          string | undefined,
        ],
    ),
  ];
}
