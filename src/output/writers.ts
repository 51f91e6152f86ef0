import type { OutputFormat } from "../flags/formats.js";
import type { IO } from "../io.js";
import { flatten, pickPaths } from "../json/dot-paths.js";
import { LosslessNumber, stringifyJson } from "../json/exact.js";
import { type SortSpec, sortRecords } from "../query/records.js";
import type { Column } from "./columns.js";
import { JsonArrayWriter } from "./json-array.js";

export { OUTPUT_FORMATS, type OutputFormat } from "../flags/formats.js";

export interface WriterOptions {
  /** Keep only these dot paths. */
  fields?: string[];
  /** The table's columns for the records it will show (some depend on what the server sent). */
  columns: (records: unknown[]) => Column[];
  /** Said on stderr when a table has no rows. */
  emptyMessage?: string;
  /** Sort every record before writing (so ndjson waits for the last page). */
  sort?: SortSpec;
  /** With sort: keep the first n records of the sorted whole (the top n, not n arbitrary ones). */
  limit?: number;
  /** CSV lines end in CRLF (for spreadsheets) instead of LF. */
  crlf?: boolean;
  /** CSV's header when no record came (the record shape's fields): a header, never an empty file. */
  emptyColumns?: string[];
}

/** Receives records batch by batch in final order; `end` is called only when the run succeeded. */
export interface RecordWriter {
  write(batch: unknown[]): Promise<void>;
  end(): Promise<void>;
}

export function createWriter(format: OutputFormat, io: IO, options: WriterOptions): RecordWriter {
  const writer = createFormatWriter(format, io, options);
  if (!options.sort) return writer;
  const sort = options.sort;
  return new BufferedWriter(async (records) => {
    const sorted = sortRecords(records, sort);
    await writer.write(options.limit === undefined ? sorted : sorted.slice(0, options.limit));
    await writer.end();
  });
}

function createFormatWriter(format: OutputFormat, io: IO, options: WriterOptions): RecordWriter {
  const project = options.fields
    ? (record: unknown) => pickPaths(record, options.fields!)
    : (record: unknown) => record;
  switch (format) {
    case "ndjson":
      return new NdjsonWriter(io, project);
    case "json":
      return new JsonArrayWriter(project, (text) => io.outJson(text));
    case "csv":
      return new BufferedWriter(async (records) => {
        const fields = options.fields ?? (records.length ? undefined : options.emptyColumns);
        await io.outServerText(toCsv(records.map(project), fields, options.crlf ? "\r\n" : "\n"));
      });
    case "table":
      return new BufferedWriter(async (records) => {
        if (records.length === 0) {
          io.err(options.emptyMessage ?? "No results.");
          return;
        }
        const columns = options.columns(records);
        const width = io.stdoutIsTTY ? io.columns : undefined;
        // cli-table3 only for a table with a column that wraps on a terminal (check's reasons).
        const [{ renderTable }, wrap] = await Promise.all([
          import("./table.js"),
          width !== undefined && columns.some((c) => c.wrap) ? import("./wrap.js") : undefined,
        ]);
        const table = renderTable(records, columns, io, { width, wrap });
        await io.outPaged(table.text);
        if (table.hidden)
          io.err(
            `(${table.hidden} more column${table.hidden === 1 ? "" : "s"} did not fit; widen the terminal or choose them with --columns)`,
          );
      });
  }
}

/** One record a line, written as soon as its batch arrives. */
class NdjsonWriter implements RecordWriter {
  constructor(
    private readonly io: IO,
    private readonly project: (r: unknown) => unknown,
  ) {}
  async write(batch: unknown[]): Promise<void> {
    let text = "";
    for (const record of batch) text += `${stringifyJson(this.project(record))}\n`;
    await this.io.outJson(text, true);
  }
  async end(): Promise<void> {}
}

/** Holds everything until the run succeeded, so a failed run prints nothing to stdout. */
class BufferedWriter implements RecordWriter {
  private readonly records: unknown[] = [];
  constructor(private readonly flush: (records: unknown[]) => Promise<void>) {}
  async write(batch: unknown[]): Promise<void> {
    for (const record of batch) this.records.push(record);
  }
  async end(): Promise<void> {
    await this.flush(this.records);
  }
}

/**
 * CSV with dot-path columns: the given fields, or every leaf seen, in first-seen order. Lines end
 * in LF, as awk, cut and grep expect; RFC 4180's CRLF on request (--crlf).
 */
export function toCsv(records: unknown[], fields?: string[], eol: "\n" | "\r\n" = "\n"): string {
  const rows = records.map((r) => flatten(r));
  let columns = fields;
  if (!columns) {
    const set = new Set<string>();
    for (const row of rows) for (const key of row.keys()) set.add(key);
    columns = [...set];
  }
  const lines = [columns.map(csvCell).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvCell(csvValue(row.get(c)))).join(","));
  return rows.length || fields ? `${lines.join(eol)}${eol}` : "";
}

function csvValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof LosslessNumber) return value.raw;
  if (typeof value === "object") return stringifyJson(value);
  return String(value);
}

/** A number as JSON or a decimal string writes it (-1e400, +2.5, .5): never a formula. */
const CSV_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function csvCell(text: string): string {
  // A leading = + - @ (or tab, CR) would make a spreadsheet evaluate the cell; prefix a quote
  // (OWASP's advice) unless the cell is a number. A semicolon is a separator in some spreadsheets'
  // locales: a cell holding one is quoted, so that "a;=cmd" stays one cell that does not start a
  // formula.
  let t = text;
  if (/^[=+\-@\t\r]/.test(t) && !CSV_NUMBER.test(t)) t = `'${t}`;
  return /[",;\r\n]/.test(t) || t !== t.trim() ? `"${t.replace(/"/g, '""')}"` : t;
}
