import type { Progress } from "../api/records.js";
import type { IO } from "../io.js";

/** How long a first answer may take before the line says the run is waiting for it. */
export const WAITING_AFTER_MS = 1_000;

/**
 * "page 3 of 34 · 90 records" on stderr, rewritten in place, only on a terminal and only for
 * fetches of more than one page; erased before the output is written. A first answer slower than
 * WAITING_AFTER_MS is said too ("waiting for the first answer…"): a silent terminal looks hung.
 */
export class ProgressLine {
  private shown = false;
  private last = 0;
  private readonly started: number;
  private waiting: NodeJS.Timeout | undefined;

  constructor(
    private readonly io: IO,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
    /** Fetches that finish sooner than this show no progress at all. */
    private readonly delayMs = 250,
  ) {
    this.started = now();
    if (enabled && !io.quiet) {
      this.waiting = setTimeout(() => {
        this.waiting = undefined;
        this.io.stderr.write(this.io.forStderr("\r\x1b[2Kwaiting for the first answer…"));
        this.shown = true;
      }, WAITING_AFTER_MS);
      this.waiting.unref();
    }
  }

  update(progress: Progress): void {
    this.stopWaiting();
    if (!this.enabled || this.io.quiet) return;
    if (progress.total !== undefined && progress.total <= 1) return;
    const now = this.now();
    if (now - this.started < this.delayMs) return;
    if (this.shown && now - this.last < 80 && progress.done !== progress.total) return;
    this.last = now;
    const of = progress.total !== undefined ? ` of ${progress.total}` : "";
    this.io.stderr.write(
      this.io.forStderr(
        `\r\x1b[2K${progress.unit} ${progress.done}${of} · ${progress.records.toLocaleString("en-US")} records`,
      ),
    );
    this.shown = true;
  }

  private stopWaiting(): void {
    if (this.waiting) clearTimeout(this.waiting);
    this.waiting = undefined;
  }

  clear(): void {
    this.stopWaiting();
    if (!this.shown) return;
    this.io.stderr.write("\r\x1b[2K");
    this.shown = false;
  }
}

/**
 * `text` on stderr once `afterMs` pass without an answer, on a terminal only (and not under
 * --quiet): a silent terminal looks hung. The function returned erases it, or stops it coming.
 */
export function waitingLine(io: IO, text: string, afterMs = WAITING_AFTER_MS): () => void {
  if (!io.stderrIsTTY || io.quiet) return () => {};
  let shown = false;
  const timer = setTimeout(() => {
    io.stderr.write(io.forStderr(`\r\x1b[2K${text}`));
    shown = true;
  }, afterMs);
  timer.unref();
  return () => {
    clearTimeout(timer);
    if (shown) io.stderr.write("\r\x1b[2K");
    shown = false;
  };
}
