import { InterruptedError } from "../../errors.js";

// The server's calls, as a whole: each with its own abort, paid ones one at a time (so each can
// say what it cost), and all of them stopped when the client goes away. A paid call cancelled
// while it waits for its turn leaves the queue at once: it never starts, so it signs nothing.

/** How long calls in flight get to answer once the client has gone. */
const END_GRACE_MS = 2_000;

/** The server's calls: started, cancelled, ended with the client. */
export class Calls {
  private readonly live = new Set<AbortController>();
  /** The paid calls waiting, in order, and the one running (the head). */
  private readonly queue: Array<() => void> = [];
  private running = false;
  /** Why the calls were stopped, once the client has gone ("the client closed stdin"). */
  ended: string | undefined;

  async run<T>(paid: boolean, signal: AbortSignal, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const own = new AbortController();
    const onAbort = () => own.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    this.live.add(own);
    try {
      if (!paid) return await body(own.signal);
      await this.turn(own.signal);
      try {
        return await body(own.signal);
      } finally {
        this.next();
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.live.delete(own);
    }
  }

  /** Waits for the paid call's turn; a call cancelled while it waits leaves the queue and throws. */
  private turn(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new InterruptedError());
    if (!this.running) {
      this.running = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal.removeEventListener("abort", leave);
        resolve();
      };
      const leave = () => {
        const at = this.queue.indexOf(start);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new InterruptedError());
      };
      this.queue.push(start);
      signal.addEventListener("abort", leave, { once: true });
    });
  }

  /** The running paid call ended: the next waiting one starts. */
  private next(): void {
    const start = this.queue.shift();
    if (start) start();
    else this.running = false;
  }

  /** Calls started and not yet answered (paid ones waiting their turn included). */
  get size(): number {
    return this.live.size;
  }

  /** The client went away: every call stops, and answers if it still can. */
  async end(why: string): Promise<void> {
    this.ended ??= why;
    for (const call of this.live) call.abort(new Error(why));
    const until = Date.now() + END_GRACE_MS;
    while (this.live.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
