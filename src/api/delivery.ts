import { identityOf } from "../contract/identity.js";
import { CompactIdSet } from "./id-set.js";

/** What of a query decides which rows are delivered. */
export interface DeliveryRules {
  limit?: number;
  /** Keeps only the rows it accepts, before the limit counts them (--where). */
  filter?: (record: unknown) => boolean;
  /** The rows a record stands for, when not itself (a list it holds, a row each); filter and limit count rows. */
  rows?: (record: unknown) => unknown[];
}

/**
 * What a walk delivers of the records it reads, page mode and chunk mode alike: each id once (the
 * live service repeats some), a record's rows, those the filter keeps, up to the limit.
 */
export class Delivery {
  /** The ids the walk has read: those given to keep(), and those its pages' walk saw (PageWalk.seen). */
  readonly seen = new CompactIdSet();
  /** Rows delivered so far. */
  delivered = 0;

  constructor(private readonly rules: DeliveryRules) {}

  /** Rows still wanted before the limit (Infinity without one). */
  get remaining(): number {
    return (this.rules.limit ?? Number.POSITIVE_INFINITY) - this.delivered;
  }

  /** The limit is reached: nothing more is wanted. */
  get full(): boolean {
    return this.remaining <= 0;
  }

  /**
   * The rows of `records` to deliver. `repeats`: the positions the walk already knows repeat an id
   * (walkPages), else the ids seen so far tell.
   */
  keep(records: unknown[], repeats?: number[]): unknown[] {
    const out: unknown[] = [];
    let r = 0;
    for (let i = 0; i < records.length && this.remaining > 0; i++) {
      if (repeats) {
        if (repeats[r] === i) {
          r++;
          continue;
        }
      } else if (this.seenBefore(records[i])) continue;
      this.take(records[i], out);
    }
    return out;
  }

  private seenBefore(record: unknown): boolean {
    const id = identityOf(record, "id");
    return id !== undefined && !this.seen.add(id);
  }

  private take(record: unknown, out: unknown[]): void {
    if (!this.rules.rows) {
      this.accept(record, out);
      return;
    }
    for (const row of this.rules.rows(record)) {
      if (this.remaining <= 0) break;
      this.accept(row, out);
    }
  }

  private accept(row: unknown, out: unknown[]): void {
    if (this.rules.filter && !this.rules.filter(row)) return;
    out.push(row);
    this.delivered++;
  }
}
