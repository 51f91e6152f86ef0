import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Requester } from "../../api/pager.js";
import { InterruptedError, UsageError } from "../../errors.js";
import { stringifyJson } from "../../json/exact.js";

// The walks the server keeps, so that a continuation reads nothing twice. A tool call that stops
// before its listing's end leaves its walk here: the record stream (the CLI's own walker), the
// records read but not yet given, and where it stands. The answer's next_cursor names the walk and
// how many records were given, under an HMAC made with a key drawn when the server started: a
// cursor is good only on the server that gave it, for the arguments it was given with, at the
// position it names (or, once, the position before: a retried continuation gets the same answer).
// Walks are bounded: each expires once idle, and past a byte budget the least recently used go.

/** How long a walk is kept after its last answer. */
export const WALK_IDLE_MS = 15 * 60_000;
/** The most walks kept at once. */
export const MAX_WALKS = 64;
/** The most bytes of records all kept walks hold together (records read, not yet given). */
export const MAX_WALK_BYTES = 64 * 1024 * 1024;

const ID = /^[A-Za-z0-9_-]{22}$/;
const CURSOR = /^([A-Za-z0-9_-]{22})\.(\d{1,9})\.([A-Za-z0-9_-]{22})$/;

/** A walk's stream, opened from where it stands: the units (pages, or list chunks) already done. */
export type OpenStream = (unitsDone: number) => AsyncGenerator<unknown[]>;

/** What the walk's stream tells after each unit it reads. */
export interface UnitRead {
  /** Units done in all, counted from the walk's start. */
  done: number;
  total: number | undefined;
  /** Nothing follows: the stream ends without another request. */
  last: boolean;
}

/** A call's hold on a walk: the requests it may still start, and the gate its payments pass. */
interface Attendance {
  signal: AbortSignal;
  allowance: number;
  requests: number;
  /** Told when the stream waits for a request this call may not start. */
  onParked: () => void;
}

/** How a pull ended for the call that waited on it. */
export type Pulled = "batch" | "ended" | "parked";

/**
 * One walk: its stream, the records read and not yet given, and what is known of its end. Every
 * request the stream makes passes the walk's requester, where the call waiting on the walk lets it
 * through: at most its allowance of requests, each paid for only while that call is not cancelled.
 * A request the call may not start waits there (the stream parks) for the next continuation.
 * `Parts`: what the walk's first call keeps with it for the continuations (data-call.ts's checks,
 * list and matches), given when the walk starts.
 */
export class Walk<Parts = unknown> {
  readonly id = randomBytes(16).toString("base64url");
  /** The walk's own life: its requests end with it (expiry, the server's end), not with a call. */
  readonly life = new AbortController();
  /** Records given so far (the position the next cursor names). */
  given = 0;
  /** Records read and not yet given, in order. */
  buffer: unknown[] = [];
  bytes = 0;
  /** The stream has no more records. */
  ended = false;
  /** The stream's last unit was read: it ends without another request. */
  last = false;
  unitsDone = 0;
  total: number | undefined;
  /** The failure that stopped the stream, until a continuation opens it again from `unitsDone`. */
  failed: Error | undefined;
  /** The answer given last, kept so that a retried continuation gets it again. */
  previous: { from: number; records: unknown[] } | undefined;
  touched = Date.now();
  busy = false;
  /** Told of each unit read (progress), with the requests the waiting call made so far. */
  onUnit: ((unit: UnitRead, requests: number) => void) | undefined;
  private stream: AsyncGenerator<unknown[]> | undefined;
  private pulling: Promise<void> | undefined;
  private call: Attendance | undefined;
  /** A request waiting for a call that may start it. */
  private parked: (() => void) | undefined;

  constructor(
    readonly binding: string,
    readonly parts: Parts,
    private readonly open: OpenStream,
  ) {}

  /** The requests of this walk's stream, let through by the call that waits on it. */
  requester(client: Requester): Requester {
    return {
      request: async (path, opts) => {
        const call = await this.admit();
        return client.request(path, { ...opts, signal: this.life.signal, payGate: call.signal });
      },
    };
  }

  /** A call takes the walk: it may start `allowance` requests, paid while `signal` holds. */
  attend(signal: AbortSignal, allowance: number): void {
    this.call = { signal, allowance, requests: 0, onParked: () => {} };
    this.busy = true;
    const parked = this.parked;
    this.parked = undefined;
    parked?.();
  }

  /** The attending call may start `more` requests besides those it was allowed. */
  grant(more: number): void {
    if (!this.call) return;
    this.call.allowance += more;
    const parked = this.parked;
    this.parked = undefined;
    parked?.();
  }

  /** The requests the attending call started. */
  get requests(): number {
    return this.call?.requests ?? 0;
  }

  /** The call is done with the walk: a request the stream starts now waits for the next one. */
  leave(): void {
    if (this.call) this.call = { ...this.call, allowance: 0, onParked: () => {} };
    this.busy = false;
  }

  /** Told by the stream's progress: a unit was read (counted from the walk's start). */
  unitRead(unit: UnitRead): void {
    this.unitsDone = unit.done;
    this.total = unit.total;
    this.last = unit.last;
    this.onUnit?.(unit, this.requests);
  }

  /**
   * Reads the next batch into the buffer, for the attending call. A pull already under way is
   * shared: a call that stopped waiting (cancelled, or out of requests) leaves it to land here for
   * the next one. "parked": the stream waits for a request this call may not start.
   */
  async pull(signal: AbortSignal): Promise<Pulled> {
    if (this.ended) return "ended";
    if (!this.pulling) {
      if (this.failed) {
        this.failed = undefined;
        this.stream = undefined;
      }
      this.stream ??= this.open(this.unitsDone);
      const stream = this.stream;
      this.pulling = stream.next().then(
        (step) => {
          this.pulling = undefined;
          if (step.done) this.ended = true;
          else this.keep(step.value);
        },
        (error: unknown) => {
          this.pulling = undefined;
          this.failed = error instanceof Error ? error : new Error(String(error));
        },
      );
    }
    const pulled = this.pulling.then(() => "pulled" as const);
    if (signal.aborted) throw new InterruptedError();
    let onAbort: () => void = () => {};
    const stopped = new Promise<"aborted" | "parked">((resolve) => {
      onAbort = () => resolve("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
      if (this.call) this.call.onParked = () => resolve("parked");
      if (this.parked) resolve("parked");
    });
    let how: "pulled" | "aborted" | "parked";
    try {
      how = await Promise.race([pulled, stopped]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    if (how === "aborted") throw new InterruptedError();
    if (how === "parked") return "parked";
    if (this.failed) throw this.failed;
    return this.ended ? "ended" : "batch";
  }

  /** Takes up to `count` records off the front of the buffer. */
  take(count: number): unknown[] {
    const records = this.buffer.splice(0, count);
    this.bytes = this.buffer.length ? Math.max(0, this.bytes - sizeOf(records)) : 0;
    this.previous = { from: this.given, records };
    this.given += records.length;
    return records;
  }

  /** Puts records that did not fit in an answer back at the front of the buffer. */
  giveBack(records: unknown[]): void {
    if (!records.length) return;
    this.buffer.unshift(...records);
    this.bytes += sizeOf(records);
    this.given -= records.length;
    if (this.previous) this.previous.records = this.previous.records.slice(0, -records.length);
  }

  /** Replaces the buffer (a sorted walk keeps its sorted whole). */
  replace(records: unknown[]): void {
    this.buffer = records;
    this.bytes = sizeOf(records);
  }

  /** The listing goes on past what was given: records kept, or a stream not known to be at its end. */
  get more(): boolean {
    return this.buffer.length > 0 || !(this.ended || (this.last && !this.pulling && !this.failed));
  }

  close(): void {
    this.life.abort(new Error("the walk ended"));
    const parked = this.parked;
    this.parked = undefined;
    parked?.();
    void this.stream?.return(undefined).catch(() => {});
    this.buffer = [];
    this.bytes = 0;
  }

  /** Lets a request through for the attending call, or waits (parks) for one that may start it. */
  private async admit(): Promise<Attendance> {
    for (;;) {
      if (this.life.signal.aborted) throw new InterruptedError();
      const call = this.call;
      if (call && call.allowance > 0 && !call.signal.aborted) {
        call.allowance--;
        call.requests++;
        return call;
      }
      await new Promise<void>((resolve) => {
        this.parked = resolve;
        call?.onParked();
      });
    }
  }

  private keep(records: unknown[]): void {
    this.buffer.push(...records);
    this.bytes += sizeOf(records);
  }
}

function sizeOf(records: unknown[]): number {
  let bytes = 0;
  for (const record of records) bytes += stringifyJson(record).length;
  return bytes;
}

/** The walks of one server, and the key its cursors are signed with. */
export class Walks<Parts = unknown> {
  private readonly key = randomBytes(32);
  private readonly walks = new Map<string, Walk<Parts>>();

  constructor(
    private readonly limits = { idleMs: WALK_IDLE_MS, maxWalks: MAX_WALKS, maxBytes: MAX_WALK_BYTES },
  ) {}

  /** A new walk for these arguments (`binding`), holding `parts`, its stream opened on first pull. */
  start(binding: string, parts: Parts, open: OpenStream): Walk<Parts> {
    this.sweep();
    const walk = new Walk(binding, parts, open);
    this.walks.set(walk.id, walk);
    return walk;
  }

  /**
   * The walk a cursor continues, and whether it asks again for the answer given last. Refused,
   * before any request: a cursor this server did not make, made for other arguments, of a walk no
   * longer kept, or one already continued past.
   */
  resume(cursor: string, binding: string): { walk: Walk<Parts>; replay: boolean } {
    this.sweep();
    const m = CURSOR.exec(cursor);
    if (!m || !ID.test(m[1]!)) throw notOurs();
    const [, id, at, mac] = m as unknown as [string, string, string, string];
    const position = Number(at);
    const walk = this.walks.get(id);
    if (!walk) {
      if (this.signs(id, position, binding, mac))
        throw new UsageError(
          `cursor: that walk is no longer kept (walks are kept ${this.limits.idleMs / 60_000} minutes after their last answer, and the server's memory for them is bounded); call again without cursor`,
        );
      throw notOurs();
    }
    if (!this.signs(id, position, walk.binding, mac)) throw notOurs();
    if (walk.binding !== binding)
      throw new UsageError(
        "cursor: it continues a call with other arguments; pass the same arguments (limit and fields may change) with it",
      );
    if (walk.busy)
      throw new UsageError("cursor: another call is continuing this walk now; wait for its answer");
    if (position === walk.given) return { walk, replay: false };
    if (walk.previous && position === walk.previous.from) return { walk, replay: true };
    throw new UsageError(
      "cursor: this walk has gone on past it (a cursor continues once); pass the next_cursor of the latest answer",
    );
  }

  /** The cursor that continues `walk` from where it stands now. */
  cursorOf(walk: Walk<Parts>): string {
    const position = walk.given;
    return `${walk.id}.${position}.${this.mac(walk.id, position, walk.binding)}`;
  }

  /** Keeps the walk for a continuation, within the budget; false when it cannot be kept. */
  keep(walk: Walk<Parts>): boolean {
    walk.touched = Date.now();
    walk.busy = false;
    if (walk.bytes > this.limits.maxBytes) {
      this.drop(walk);
      return false;
    }
    this.sweep(walk);
    return true;
  }

  /** The walk will not be continued (its listing ended, or its call failed before any answer). */
  drop(walk: Walk<Parts>): void {
    walk.close();
    this.walks.delete(walk.id);
  }

  /** Ends every walk (the server stops). */
  close(): void {
    for (const walk of this.walks.values()) walk.close();
    this.walks.clear();
  }

  get size(): number {
    return this.walks.size;
  }

  /** Drops idle walks, then the least recently used until within the count and byte budgets. */
  private sweep(keep?: Walk<Parts>): void {
    const now = Date.now();
    for (const walk of this.walks.values())
      if (!walk.busy && walk !== keep && now - walk.touched > this.limits.idleMs) this.drop(walk);
    const idle = [...this.walks.values()]
      .filter((walk) => !walk.busy && walk !== keep)
      .sort((a, b) => a.touched - b.touched);
    let bytes = [...this.walks.values()].reduce((sum, walk) => sum + walk.bytes, 0);
    while (idle.length && (this.walks.size >= this.limits.maxWalks || bytes > this.limits.maxBytes)) {
      const oldest = idle.shift()!;
      bytes -= oldest.bytes;
      this.drop(oldest);
    }
  }

  private mac(id: string, position: number, binding: string): string {
    return createHmac("sha256", this.key)
      .update(`${id}.${position}.${binding}`)
      .digest()
      .subarray(0, 16)
      .toString("base64url");
  }

  private signs(id: string, position: number, binding: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(id, position, binding));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

const notOurs = () =>
  new UsageError(
    "cursor: not a cursor this server gave (a cursor is good only on the server that gave it, while it runs); pass next_cursor exactly as an answer gave it, or call again without cursor",
  );
