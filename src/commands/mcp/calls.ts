// The server's calls, as a whole: each with its own abort, paid ones one at a time (so each can
// say what it cost), and all of them stopped when the client closes stdin.

/** How long calls in flight get to answer once the client has closed stdin. */
const END_GRACE_MS = 2_000;

/** The server's calls: started, cancelled, ended with stdin. */
export class Calls {
  private readonly live = new Set<AbortController>();
  /** Paid calls run one at a time, so that each can say exactly what it cost. */
  private paying: Promise<unknown> = Promise.resolve();
  ended = false;

  async run<T>(paid: boolean, signal: AbortSignal, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const own = new AbortController();
    const onAbort = () => own.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    this.live.add(own);
    try {
      if (!paid) return await body(own.signal);
      const turn = this.paying.then(() => body(own.signal));
      this.paying = turn.catch(() => {});
      return await turn;
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.live.delete(own);
    }
  }

  /** The client closed stdin: every call stops, and answers if it still can. */
  async end(): Promise<void> {
    this.ended = true;
    for (const call of this.live) call.abort(new Error("the client closed stdin"));
    const until = Date.now() + END_GRACE_MS;
    while (this.live.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }
}
