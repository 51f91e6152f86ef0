import { describe, expect, it } from "vitest";
import { Limiter } from "../../src/api/limiter.js";

describe("Limiter", () => {
  it("never lets more than the limit in flight", async () => {
    const limiter = new Limiter(3);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const release = await limiter.acquire();
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 2));
        active--;
        release();
      }),
    );
    expect(peak).toBe(3);
  });

  it("halves on throttling (not below 1) and climbs back one at a time after a run of successes", () => {
    const limiter = new Limiter(8);
    limiter.throttled();
    expect(limiter.limit).toBe(4);
    limiter.throttled();
    limiter.throttled();
    limiter.throttled();
    expect(limiter.limit).toBe(1);
    for (let i = 0; i < 15; i++) limiter.succeeded();
    expect(limiter.limit).toBe(1);
    limiter.succeeded();
    expect(limiter.limit).toBe(2);
    for (let i = 0; i < 1000; i++) limiter.succeeded();
    expect(limiter.limit).toBe(8);
  });

  it("spaces request starts to honour a rate ceiling", async () => {
    // 600 a minute: one start every 100 ms. A lower bound only, so a slow machine cannot fail it.
    const limiter = new Limiter(10, 100);
    const t0 = performance.now();
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const release = await limiter.acquire();
        starts.push(performance.now() - t0);
        release();
      }),
    );
    starts.sort((a, b) => a - b);
    // The ceiling holds over time: the i-th start is at least i intervals after the first (one start
    // delayed by a busy event loop shortens the gap after it, never the total).
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[0]!).toBeGreaterThanOrEqual(i * 95);
  });

  it("gives up waiting when the run is aborted", async () => {
    const limiter = new Limiter(1);
    const hold = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    hold();
  });
});
