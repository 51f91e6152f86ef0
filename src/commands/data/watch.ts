import type { ApiClient } from "../../api/client.js";
import { sleep } from "../../api/limiter.js";
import { streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { AuthError, CliError, InterruptedError, PaymentError, UsageError } from "../../errors.js";
import { sanitizeInline } from "../../output/sanitize.js";
import { sortRecords } from "../../output/sort.js";
import { renderTable } from "../../output/table.js";
import { truncateWidth } from "../../output/width.js";
import { formatDuration } from "../../text.js";
import type { ParsedDataOptions } from "./run.js";

/** The service's default quota: refreshes are spaced so a watch stays under it. */
const DEFAULT_QUOTA_PER_MINUTE = 100;

const ALT_SCREEN_ON = "\x1b[?1049h\x1b[?25l";
const ALT_SCREEN_OFF = "\x1b[?25h\x1b[?1049l";
const HOME_AND_CLEAR = "\x1b[H\x1b[2J";

/**
 * --watch: redraws the table in place every interval on the terminal's alternate screen, with the
 * cells that changed since the last refresh highlighted; Ctrl-C leaves the screen as it was.
 */
export async function runWatch(
  ctx: RunContext,
  client: ApiClient,
  parsed: ParsedDataOptions,
  emptyMessage: string,
): Promise<void> {
  const io = ctx.io;
  const quota = client.ratePerMinute ?? DEFAULT_QUOTA_PER_MINUTE;
  const command = ctx.commandLine;
  let previous: Map<string, string> | undefined;
  let interval = parsed.watchMs!;
  let note = "";
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    io.stdout.write(ALT_SCREEN_OFF);
  };
  process.once("exit", restore);
  io.stdout.write(ALT_SCREEN_ON);
  try {
    for (;;) {
      let requests = 0;
      let header: string;
      let body = "";
      try {
        const records: unknown[] = [];
        const query = { ...parsed.query, onProgress: () => void requests++ };
        for await (const batch of streamRecords(client, query)) records.push(...batch);
        const sorted = parsed.sort ? sortRecords(records, parsed.sort) : records;
        const shown = parsed.sortLimit === undefined ? sorted : sorted.slice(0, parsed.sortLimit);
        const columns = parsed.columns(shown);
        const first = renderTable(shown, columns, io, { width: io.columns });
        const changed = new Set<string>();
        if (previous) for (const [key, text] of first.cells) if (previous.get(key) !== text) changed.add(key);
        const table = changed.size
          ? renderTable(shown, columns, io, { width: io.columns, highlight: changed })
          : first;
        previous = first.cells;
        body = shown.length ? table.text : `${emptyMessage}\n`;
        // Never faster than the quota allows for the requests one refresh takes.
        const floor = Math.ceil((Math.max(1, requests) * 60_000) / quota);
        if (interval < floor) {
          interval = floor;
          note = ` (slowed to ${Math.ceil(floor / 1000)}s: ${requests} requests a refresh, ${quota}/min)`;
        }
        header = `Every ${formatDuration(interval, true)}${note} · ${new Date().toLocaleTimeString()} · ${changed.size} changed · ${command}`;
      } catch (error) {
        if (
          error instanceof InterruptedError ||
          error instanceof AuthError ||
          error instanceof UsageError ||
          error instanceof PaymentError
        )
          throw error;
        const message = error instanceof CliError ? error.message : String(error);
        header = `${command} · refresh failed at ${new Date().toLocaleTimeString()}: ${message} (trying again in ${formatDuration(interval, true)})`;
        body = "";
      }
      await io.out(
        `${HOME_AND_CLEAR}${truncateWidth(sanitizeInline(io.redact(header)), io.columns)}\n\n${body}`,
      );
      await sleep(interval, ctx.signal).catch(() => {
        throw new InterruptedError();
      });
    }
  } finally {
    restore();
  }
}
