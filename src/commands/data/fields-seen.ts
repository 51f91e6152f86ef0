import { UsageError } from "../../errors.js";
import { getPath, UNSAFE_KEYS } from "../../json/dot-paths.js";
import { nearPaths } from "./path-flags.js";

// A record may carry more than the shape the contract documents (the seed's TA records have
// `symbol`, `name` and `usd_price` at the top level), so a field named on the command line that the
// shape does not list is looked for in the records instead of refused. One that no record has is
// named: a filter or a sort on a field the shape does not list is refused after the first page,
// before anything is written or another page read (it would match nothing, or order nothing); a
// column no record had, documented or not, is a warning at the end (`[{},{}]` never comes without
// a word). The walkers call checkDeciding() after each page, since a page whose records a filter all
// dropped yields no batch for guard() to see.

/** Flags whose field decides which records are written and in what order. */
const DECIDING = new Set(["--where", "--sort"]);

/** Dot paths of a record, at most this many, for "did you mean" (a hostile record is bounded). */
const MAX_PATHS_READ = 2_000;
/** A key longer than this is no field name to suggest (a server may send a 20 MB one). */
const MAX_KEY_LENGTH = 128;
/**
 * A key that can be a field name on the command line (path-flags' rule): a server's key with an
 * escape sequence in it would be shown without it, naming a field no record has.
 */
const FIELD_NAME = /^[A-Za-z_][\w-]*$/;

/** Records another spelling of the command shows (the rows a record holds): their fields, and how to get them. */
export interface OtherRecords {
  /** Their shape's paths. */
  paths: ReadonlySet<string>;
  /** What a path of theirs is, and the flag that shows them: "an activity's field: add --activities". */
  how: string;
}

export class FieldsSeen {
  /** Each path looked for, with the flags that named it; a path leaves once a record has it. */
  private readonly unseen = new Map<string, { flags: Set<string>; documented: boolean }>();
  private records = 0;
  /** The fields the first record carried, for suggestions. */
  private carried: string[] = [];

  constructor(
    private readonly what: string,
    private readonly other?: OtherRecords,
  ) {}

  /**
   * Refuses, before any request, a --where or --sort field that is not these records' but the other
   * records' (a row's field asked of the records that hold the rows): it would match nothing.
   */
  pointElsewhere(flag: string, path: string): void {
    if (DECIDING.has(flag) && this.other?.paths.has(path))
      throw new UsageError(`${flag}: ${JSON.stringify(path)} is ${this.other.how}`);
  }

  /** Looks for `path` in the records, for `flag`; `documented`: the shape lists it. */
  expect(flag: string, path: string, documented: boolean): void {
    const entry = this.unseen.get(path) ?? { flags: new Set<string>(), documented };
    entry.flags.add(flag);
    this.unseen.set(path, entry);
  }

  get looking(): boolean {
    return this.unseen.size > 0;
  }

  /** A record as it arrives, before any filter. */
  see(record: unknown): void {
    if (this.records++ === 0) this.carried = carriedPaths(record);
    for (const path of this.unseen.keys()) if (carries(record, path)) this.unseen.delete(path);
  }

  /** The filter a query runs, with every record seen first. */
  watching(filter: ((record: unknown) => boolean) | undefined): (record: unknown) => boolean {
    return (record) => {
      this.see(record);
      return filter ? filter(record) : true;
    };
  }

  /**
   * Refuses a --where or --sort field that none of the records read so far has: called once a page
   * was read, before the first batch is written, and at the end (nothing before any record came).
   */
  checkDeciding(): void {
    if (this.records === 0) return;
    for (const [path, { flags, documented }] of this.unseen) {
      const flag = [...flags].find((f) => DECIDING.has(f));
      if (flag && !documented) throw new UsageError(this.line(flag, path, "no record has it"));
    }
  }

  /** Stream batches through, checking the deciding fields before the first batch is written. */
  async *guard(stream: AsyncIterable<unknown[]>): AsyncGenerator<unknown[]> {
    let first = true;
    for await (const batch of stream) {
      if (first) this.checkDeciding();
      first = false;
      yield batch;
    }
    this.checkDeciding();
  }

  /** What to say at the end of the answer of the columns no record had (none when no record came). */
  notes(): string[] {
    if (this.records === 0) return [];
    // One line a flag: `--columns: no record had "a", "b"; their columns are empty in market`.
    const byFlag = new Map<string, string[]>();
    for (const [path, { flags }] of this.unseen) {
      const columns = [...flags].filter((f) => !DECIDING.has(f)).join(", ");
      if (columns) byFlag.set(columns, [...(byFlag.get(columns) ?? []), path]);
    }
    return [...byFlag].map(([flag, paths]) =>
      paths.length === 1
        ? this.line(flag, paths[0]!, "no record had it; its column is empty")
        : `${flag}: no record had ${paths.map((p) => JSON.stringify(p)).join(", ")}; their columns are empty in ${this.what}`,
    );
  }

  private line(flag: string, path: string, why: string): string {
    const near = nearPaths(path, this.carried);
    const elsewhere = this.other?.paths.has(path) ? ` (it is ${this.other.how})` : "";
    return `${flag}: ${JSON.stringify(path)}: ${why} in ${this.what}${near.length ? ` (the records have ${near.join(", ")})` : elsewhere}`;
  }
}

/** A JSON object as parsed (not an array, not an exact number). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether the record has the path as a key (null counts: the field came, empty). */
function carries(record: unknown, path: string): boolean {
  const parts = path.split(".");
  const leaf = parts.at(-1)!;
  const parent = parts.length > 1 ? getPath(record, parts.slice(0, -1).join(".")) : record;
  return !UNSAFE_KEYS.has(leaf) && isPlainObject(parent) && Object.hasOwn(parent, leaf);
}

function carriedPaths(record: unknown, prefix = "", out: string[] = []): string[] {
  if (!isPlainObject(record)) return out;
  for (const [key, value] of Object.entries(record)) {
    if (out.length >= MAX_PATHS_READ) break;
    // A key naming an object's internals is no path a flag takes (path-flags refuses it).
    if (key.length > MAX_KEY_LENGTH || !FIELD_NAME.test(key) || UNSAFE_KEYS.has(key)) continue;
    out.push(prefix + key);
    carriedPaths(value, `${prefix}${key}.`, out);
  }
  return out;
}
