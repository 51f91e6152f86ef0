import type { ApiClient } from "../../api/client.js";
import { streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { AuthError, CliError, InterruptedError, PaymentError, UsageError } from "../../errors.js";
import { sortRecords } from "../../query/records.js";
import { sleep } from "../../sleep.js";
import { formatDuration } from "../../text.js";
import type { ParsedDataOptions } from "./run.js";
import { ChangeFilter } from "./watch-changes.js";
import type { FieldChange } from "./watch-diff.js";

/** The service's default quota: refreshes are spaced so a watch stays under it. */
const DEFAULT_QUOTA_PER_MINUTE = 100;

/** One refresh as a view shows it. */
export interface Refresh {
  /** The records to show, in final order (only the changed ones with --changes). */
  records: unknown[];
  /** How long until the next refresh, and why it is longer than asked, if it is. */
  intervalMs: number;
  note: string;
  /** With --diff: the fields that changed since the refresh before (none on the first). */
  diff?: FieldChange[];
}

/** Where a watch goes: a screen redrawn in place (terminal) or a stream of NDJSON lines (pipe). */
export interface WatchView {
  show(refresh: Refresh): Promise<void>;
  /** A refresh that failed and will be tried again: the view says so and keeps what it showed. */
  failed(message: string, retryMs: number): Promise<void>;
  /** The watch ended (--count reached, Ctrl-C, an error): leave the terminal as it was. */
  close(completed: boolean): Promise<void>;
}

/**
 * --watch: fetches the records every interval (never faster than the quota allows) and hands each
 * refresh to a view, until Ctrl-C or --count refreshes. A refresh's records are exactly what the
 * engine streams (sorted, filtered), so a filter on the query composes with the watch.
 */
export async function runWatch(
  ctx: RunContext,
  client: ApiClient,
  parsed: ParsedDataOptions,
  emptyMessage: string,
): Promise<void> {
  const view: WatchView = parsed.watchStream
    ? new (await import("./watch-stream.js")).StreamView(ctx.io, parsed.fields, parsed.watchDiff)
    : new (await import("./watch-screen.js")).ScreenView(ctx.io, parsed, ctx.commandLine, emptyMessage);
  const quota = client.ratePerMinute ?? DEFAULT_QUOTA_PER_MINUTE;
  // A fan-out's stamp (the venue) is part of who a record is: one token on two venues is two rows.
  const scope = parsed.query.fanOut?.param;
  const changes = parsed.watchChanges ? new ChangeFilter(parsed.fields, scope) : undefined;
  const differ = parsed.watchDiff
    ? new (await import("./watch-diff.js")).FieldDiff(parsed.fields, scope)
    : undefined;
  let interval = parsed.watchMs!;
  let note = "";
  let refreshes = 0;
  let completed = false;
  try {
    for (;;) {
      let requests = 0;
      let records: unknown[] | undefined;
      try {
        records = await fetchRefresh(client, parsed, () => void requests++);
      } catch (error) {
        if (
          error instanceof InterruptedError ||
          error instanceof AuthError ||
          error instanceof UsageError ||
          error instanceof PaymentError ||
          ctx.signal.aborted
        )
          throw error instanceof CliError || !ctx.signal.aborted ? error : new InterruptedError();
        await view.failed(error instanceof CliError ? error.message : String(error), interval);
      }
      if (records) {
        // Never faster than the quota allows for the requests one refresh takes.
        const floor = Math.ceil((Math.max(1, requests) * 60_000) / quota);
        if (interval < floor) {
          interval = floor;
          note = ` (slowed to ${formatDuration(floor, true)}: ${requests} requests a refresh, ${quota}/min)`;
        }
        // A column no record had is named once, after the first refresh, as a single run does.
        if (refreshes === 0) for (const line of parsed.seen.notes()) ctx.io.warn(line);
        const diff = differ?.next(records);
        await view.show({
          records: changes ? changes.next(records) : records,
          intervalMs: interval,
          note,
          diff,
        });
        refreshes++;
        if (parsed.watchCount !== undefined && refreshes >= parsed.watchCount) {
          completed = true;
          return;
        }
      }
      await sleep(interval, ctx.signal).catch(() => {
        throw new InterruptedError();
      });
    }
  } finally {
    await view.close(completed);
  }
}

/** One refresh's records: the same stream a single run writes, in the order it writes them. */
async function fetchRefresh(
  client: ApiClient,
  parsed: ParsedDataOptions,
  onRequest: () => void,
): Promise<unknown[]> {
  const records: unknown[] = [];
  const onProgress = () => {
    parsed.seen.checkDeciding();
    onRequest();
  };
  const query = { ...parsed.query, onProgress };
  for await (const batch of parsed.seen.guard(streamRecords(client, query))) records.push(...batch);
  const sorted = parsed.sort ? sortRecords(records, parsed.sort) : records;
  // --sort with --limit: the top n of the whole (the pager was given no limit).
  return parsed.sortLimit === undefined ? sorted : sorted.slice(0, parsed.sortLimit);
}
