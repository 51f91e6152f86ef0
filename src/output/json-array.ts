import { stringifyJson } from "../json/exact.js";

/**
 * The records as one indented JSON array, written only when the run succeeded (`end`), like any
 * buffered format; but each batch is rendered as it arrives, while later pages are still on their
 * way, so the end only joins text. The result is the same text as stringifyJson(all records, 2).
 */
export class JsonArrayWriter {
  private readonly parts: string[] = [];
  constructor(
    private readonly project: (record: unknown) => unknown,
    private readonly flush: (text: string) => Promise<void>,
  ) {}

  async write(batch: unknown[]): Promise<void> {
    if (batch.length === 0) return;
    // "[\n  a,\n  b\n]" without its brackets: the items at the array's indentation.
    const text = stringifyJson(batch.map(this.project), 2);
    this.parts.push(text.slice(2, -2));
  }

  async end(): Promise<void> {
    await this.flush(this.parts.length ? `[\n${this.parts.join(",\n")}\n]\n` : "[]\n");
  }
}
