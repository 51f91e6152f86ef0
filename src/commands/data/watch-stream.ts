import type { IO } from "../../io.js";
import { pickPaths } from "../../json/dot-paths.js";
import { stringifyJson } from "../../json/exact.js";
import type { Refresh, WatchView } from "./watch.js";

/**
 * --watch into a pipe: every refresh writes its records, each as it came (lossless, --fields
 * applied), one NDJSON line a record (with --diff: one line a changed field), in one write as soon
 * as the refresh is complete, so a reader never sees half a refresh or half a line, even when
 * Ctrl-C ends the watch.
 */
export class StreamView implements WatchView {
  private noted = "";

  constructor(
    private readonly io: IO,
    private readonly fields: string[] | undefined,
    private readonly diff = false,
  ) {}

  async show({ records, note, diff }: Refresh): Promise<void> {
    if (note && note !== this.noted) {
      this.noted = note;
      this.io.info(`tokenintel: watch${note}`);
    }
    let text = "";
    if (this.diff) for (const change of diff ?? []) text += `${stringifyJson(change)}\n`;
    else
      for (const record of records)
        text += `${stringifyJson(this.fields ? pickPaths(record, this.fields) : record)}\n`;
    if (text) await this.io.outServerText(text);
  }

  async failed(message: string, retryMs: number): Promise<void> {
    const seconds = Math.ceil(retryMs / 1000);
    this.io.warn(`refresh failed at ${new Date().toISOString()}: ${message} (trying again in ${seconds}s)`);
  }

  async close(): Promise<void> {}
}
