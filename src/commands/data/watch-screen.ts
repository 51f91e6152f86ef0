import type { IO } from "../../io.js";
import { renderTable } from "../../output/table.js";
import { truncateWidth } from "../../output/width.js";
import { sanitizeInline } from "../../terminal/sanitize.js";
import { formatDuration } from "../../text.js";
import type { ParsedDataOptions } from "./run.js";
import type { Refresh, WatchView } from "./watch.js";

const ALT_SCREEN_ON = "\x1b[?1049h\x1b[?25l";
const ALT_SCREEN_OFF = "\x1b[?25h\x1b[?1049l";
const HOME_AND_CLEAR = "\x1b[H\x1b[2J";

/**
 * Fits a frame to a terminal of `rows` lines: the status line, a blank line, then the body (a
 * table: its header line, then one line a record). When the table is taller than what is left,
 * its last rows give way to "… N more", so the status line and the column headers never scroll
 * off. The result has no newline after its last line (one there would scroll a full screen).
 */
export function fitFrame(status: string, body: string, rows: number | undefined, footer = ""): string {
  const bodyLines = body.replace(/\n$/, "").split("\n");
  const tail = footer ? [footer] : [];
  const lines = [status, "", ...bodyLines, ...tail];
  if (rows === undefined || lines.length <= rows) return lines.join("\n");
  const [tableHeader, ...records] = bodyLines;
  // Status, blank, column headers, the "more" line (and the footer) take four (five); the records
  // get the rest.
  const keep = Math.max(0, rows - 4 - tail.length);
  const fitted = [
    status,
    "",
    tableHeader!,
    ...records.slice(0, keep),
    `… ${records.length - keep} more`,
    ...tail,
  ];
  return fitted.slice(0, Math.max(1, rows)).join("\n");
}

/**
 * --watch on a terminal: redraws the table in place on the alternate screen every refresh, with the
 * cells that changed since the last refresh highlighted, fitted to the terminal's size as it is at
 * each redraw; a resize redraws at once. Ctrl-C leaves the screen as it was.
 */
export class ScreenView implements WatchView {
  private previous: Map<string, string> | undefined;
  private last: { status: string; records: unknown[]; highlight: Set<string>; changed: string } | undefined;
  private failure: string | undefined;
  private restored = false;
  private readonly unsubscribe: () => void;
  private readonly restore = () => {
    if (this.restored) return;
    this.restored = true;
    this.unsubscribe();
    this.io.stdout.write(ALT_SCREEN_OFF);
  };

  constructor(
    private readonly io: IO,
    private readonly parsed: ParsedDataOptions,
    private readonly command: string,
    private readonly emptyMessage: string,
  ) {
    process.once("exit", this.restore);
    this.unsubscribe = io.onResize(() => void this.draw());
    io.stdout.write(ALT_SCREEN_ON);
  }

  async show({ records, intervalMs, note, diff }: Refresh): Promise<void> {
    const first = renderTable(records, this.parsed.columns(records), this.io, { width: this.io.columns });
    const changed = new Set<string>();
    if (this.previous)
      for (const [key, text] of first.cells) if (this.previous.get(key) !== text) changed.add(key);
    // Merged, not replaced: with --changes a refresh shows only some rows, the others keep their cells.
    this.previous = new Map([...(this.previous ?? []), ...first.cells]);
    const status = `Every ${formatDuration(intervalMs, true)}${note} · ${new Date().toLocaleTimeString()} · ${changed.size} changed · ${this.command}`;
    const what = diff ? (await import("./watch-diff.js")).describeChanges(diff) : "";
    this.last = { status, records, highlight: changed, changed: what };
    this.failure = undefined;
    await this.draw();
  }

  async failed(message: string, retryMs: number): Promise<void> {
    this.failure = `${this.command} · refresh failed at ${new Date().toLocaleTimeString()}: ${message} (trying again in ${formatDuration(retryMs, true)})`;
    await this.draw();
  }

  async close(completed: boolean): Promise<void> {
    this.restore();
    process.off("exit", this.restore);
    // --count reached: the last refresh stays on the normal screen, whole.
    if (completed && this.last) await this.io.out(`${this.frame(undefined)}\n`);
  }

  /** The current frame, at the terminal's size now. */
  private async draw(): Promise<void> {
    if (this.restored) return;
    await this.io.out(`${HOME_AND_CLEAR}${this.frame(this.io.rows)}`);
  }

  private frame(rows: number | undefined): string {
    const width = this.io.columns;
    const oneLine = (line: string) => truncateWidth(sanitizeInline(this.io.redact(line)), width);
    if (this.failure) return oneLine(this.failure);
    if (!this.last) return "";
    const { status, records, highlight, changed } = this.last;
    const body = records.length
      ? renderTable(records, this.parsed.columns(records), this.io, { width, highlight }).text
      : this.parsed.watchChanges && this.previous
        ? "No changes since the last refresh."
        : this.emptyMessage;
    return fitFrame(oneLine(status), body, rows, changed && oneLine(changed));
  }
}
