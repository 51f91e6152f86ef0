import { identityOf } from "../../contract/identity.js";
import { flatten, getPath, pickPaths } from "../../json/dot-paths.js";
import { stringifyJson } from "../../json/exact.js";
import { recordIdentity } from "./watch-changes.js";

/**
 * One changed field of one token between two refreshes: what `--watch --diff` writes as an NDJSON
 * line. `from` and `to` are the values as the server sent them (numbers exact); null stands for a
 * field that was missing. A token that enters or leaves the refresh (a --where that starts or stops
 * holding, a listing that changed) is one line with `field: null` and `from`/`to` "absent"/"present".
 */
export interface FieldChange {
  at: string;
  id: string | null;
  symbol: string | null;
  /** With a fan-out, the value the record was asked with, under its parameter's name (`dex`). */
  [scope: string]: unknown;
  field: string | null;
  from: unknown;
  to: unknown;
}

interface Seen {
  record: unknown;
  /** Each watched leaf as its exact JSON text, to compare. */
  leaves: Map<string, string>;
  values: Map<string, unknown>;
}

/**
 * --diff: compares each refresh with the one before, token by token (the identity --changes uses),
 * field by field (the --fields chosen, else every leaf), and lists what changed in record order.
 * The first refresh is the baseline: it lists nothing.
 */
export class FieldDiff {
  private previous: Map<string, Seen> | undefined;

  constructor(
    private readonly fields: string[] | undefined,
    /** The field a fan-out stamps: part of who a record is, and named in each change. */
    private readonly scope?: string,
  ) {}

  next(records: unknown[], at = new Date()): FieldChange[] {
    const when = at.toISOString();
    const current = new Map<string, Seen>();
    const changes: FieldChange[] = [];
    records.forEach((record, index) => {
      const base = recordIdentity(record, this.scope) ?? `#${index}`;
      let key = base;
      for (let n = 2; current.has(key); n++) key = `${base}#${n}`;
      const values = flatten(this.fields ? pickPaths(record, this.fields) : record);
      const leaves = new Map([...values].map(([path, value]) => [path, stringifyJson(value)]));
      current.set(key, { record, leaves, values });
      if (!this.previous) return;
      const before = this.previous.get(key);
      if (!before) {
        changes.push(this.change(when, record, null, "absent", "present"));
        return;
      }
      const paths = new Set([...before.leaves.keys(), ...leaves.keys()]);
      for (const path of paths) {
        if (before.leaves.get(path) === leaves.get(path)) continue;
        changes.push(
          this.change(when, record, path, before.values.get(path) ?? null, values.get(path) ?? null),
        );
      }
    });
    if (this.previous)
      for (const [key, gone] of this.previous)
        if (!current.has(key)) changes.push(this.change(when, gone.record, null, "present", "absent"));
    this.previous = current;
    return changes;
  }

  private change(at: string, record: unknown, field: string | null, from: unknown, to: unknown): FieldChange {
    const scoped = this.scope === undefined ? {} : { [this.scope]: getPath(record, this.scope) ?? null };
    return {
      at,
      id: identityOf(record, "id") ?? null,
      symbol: identityOf(record, "symbol") ?? null,
      ...scoped,
      field,
      from,
      to,
    };
  }
}

/** A short "what changed" line for a terminal: `AERO usd_price 1.2→1.3 · … (+N more)`. */
export function describeChanges(changes: readonly FieldChange[], most = 4): string {
  if (changes.length === 0) return "";
  const text = (value: unknown) => (typeof value === "string" ? value : stringifyJson(value));
  const parts = changes.slice(0, most).map((change) => {
    const who = change.symbol ?? change.id ?? "?";
    if (change.field === null) return `${who} ${change.to === "present" ? "entered" : "left"}`;
    const leaf = change.field.slice(change.field.lastIndexOf(".") + 1);
    return `${who} ${leaf} ${text(change.from)}→${text(change.to)}`;
  });
  const more = changes.length > most ? ` (+${changes.length - most} more)` : "";
  return `what changed: ${parts.join(" · ")}${more}`;
}
