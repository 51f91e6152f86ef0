import type { Progress } from "../api/records.js";
import type { IO } from "../io.js";

/**
 * "page 3 of 34 · 90 records" on stderr, rewritten in place, only on a terminal and only for
 * fetches of more than one page; erased before the output is written.
 */
export class ProgressLine {
  private shown = false;
  private last = 0;
  private readonly started: number;

  constructor(
    private readonly io: IO,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
    /** Fetches that finish sooner than this show no progress at all. */
    private readonly delayMs = 250,
  ) {
    this.started = now();
  }

  update(p: Progress): void {
    if (!this.enabled || this.io.quiet) return;
    if (p.total !== undefined && p.total <= 1) return;
    const t = this.now();
    if (t - this.started < this.delayMs) return;
    if (this.shown && t - this.last < 80 && p.done !== p.total) return;
    this.last = t;
    const of = p.total !== undefined ? ` of ${p.total}` : "";
    this.io.stderr.write(`\r\x1b[2K${p.unit} ${p.done}${of} · ${p.records.toLocaleString("en-US")} records`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.io.stderr.write("\r\x1b[2K");
    this.shown = false;
  }
}
