import { identityOf } from "../../contract/identity.js";
import { getPath, pickPaths } from "../../json/dot-paths.js";
import { stringifyJson } from "../../json/exact.js";

/**
 * Which token a record is, across refreshes: its id, else its chain and address, else its symbol;
 * undefined when it names none of them. `scope`: the field a fan-out stamps (the venue a record
 * came from), part of who the record is when the run asked several values.
 */
export function recordIdentity(record: unknown, scope?: string): string | undefined {
  const own = tokenIdentity(record);
  if (own === undefined || scope === undefined) return own;
  const value = getPath(record, scope);
  return typeof value === "string" ? `${scope}=${value}:${own}` : own;
}

function tokenIdentity(record: unknown): string | undefined {
  const id = identityOf(record, "id");
  if (id !== undefined) return `id:${id}`;
  const address = identityOf(record, "address");
  if (address !== undefined) return `ca:${identityOf(record, "chain") ?? ""}:${address}`;
  const symbol = identityOf(record, "symbol");
  return symbol === undefined ? undefined : `symbol:${symbol}`;
}

/**
 * --changes: passes on only the records that are new or whose fields (the --fields chosen, else
 * all of them) differ from the same token's record in the refresh before. The first refresh passes
 * everything. A record without identity is matched by its place in the refresh.
 */
export class ChangeFilter {
  private previous: Map<string, string> | undefined;

  constructor(
    private readonly fields: string[] | undefined,
    private readonly scope?: string,
  ) {}

  next(records: unknown[]): unknown[] {
    const current = new Map<string, string>();
    const changed: unknown[] = [];
    records.forEach((record, index) => {
      const base = recordIdentity(record, this.scope) ?? `#${index}`;
      let key = base;
      // Two records of one identity in a refresh are told apart by their order.
      for (let n = 2; current.has(key); n++) key = `${base}#${n}`;
      const text = stringifyJson(this.fields ? pickPaths(record, this.fields) : record);
      current.set(key, text);
      if (this.previous?.get(key) !== text) changed.push(record);
    });
    this.previous = current;
    return changed;
  }
}
