import { sleep } from "../sleep.js";
// Admission control for requests: a concurrency limit that halves when the server throttles and
// creeps back up after a run of successes (AIMD), plus an optional client-side rate ceiling.

export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private successes = 0;
  private nextStart = 0;
  limit: number;

  constructor(
    readonly max: number,
    private readonly minIntervalMs = 0,
    private readonly now: () => number = Date.now,
  ) {
    this.limit = max;
  }

  /** Waits for a free slot (and for the rate ceiling); returns the release function. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    while (this.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        this.waiting.push(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        });
      });
    }
    this.active++;
    if (this.minIntervalMs > 0) {
      const now = this.now();
      const start = Math.max(now, this.nextStart);
      this.nextStart = start + this.minIntervalMs;
      if (start > now) await sleep(start - now, signal);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.wakeOne();
    };
  }

  /** The server said slow down: halve the concurrency for the rest of the run. */
  throttled(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
  }

  /** A request succeeded: after a run of successes, allow one more in flight again. */
  succeeded(): void {
    if (this.limit >= this.max) return;
    this.successes++;
    if (this.successes >= this.limit * 16) {
      this.limit++;
      this.successes = 0;
      this.wakeOne();
    }
  }

  private wakeOne(): void {
    if (this.active < this.limit) this.waiting.shift()?.();
  }
}
