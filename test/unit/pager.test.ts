import { describe, expect, it } from "vitest";
import { type Page, walkPages } from "../../src/api/pager.js";

/** A fake server of `total` records, `size` a page; records when each page was asked for. */
function pages(total: number, size: number, withCount: boolean) {
  const asked: number[] = [];
  let inFlight = 0;
  let peak = 0;
  const fetch = async (n: number): Promise<Page> => {
    asked.push(n);
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, 5 + ((n * 7) % 5)));
    inFlight--;
    const records = Array.from({ length: Math.max(0, Math.min(size, total - (n - 1) * size)) }, (_, i) => ({
      id: `${n}-${i}`,
    }));
    const pageCount = Math.ceil(total / size);
    return {
      number: n,
      records,
      pagination: withCount ? { page: n, pageSize: size, pageCount, total } : undefined,
    };
  };
  return { fetch, asked, peak: () => peak };
}

async function walk(
  p: ReturnType<typeof pages>,
  opts: { window: number; speculate?: number; wanted?: number },
) {
  const got: number[] = [];
  for await (const page of walkPages({
    fetch: p.fetch,
    pageSize: 10,
    wanted: () => opts.wanted ?? Number.POSITIVE_INFINITY,
    window: opts.window,
    speculate: opts.speculate,
  })) {
    got.push(page.number);
  }
  return got;
}

describe("walkPages", () => {
  it("with a page count: every page once, in order, at most `window` ahead", async () => {
    const p = pages(95, 10, true);
    expect(await walk(p, { window: 4 })).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...p.asked].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(p.peak()).toBe(4);
  });

  it("without a page count: asks `speculate` pages ahead and stops at the short page", async () => {
    const p = pages(45, 10, false);
    expect(await walk(p, { window: 8, speculate: 4 })).toEqual([1, 2, 3, 4, 5]);
    expect(p.asked.slice(0, 5)).toEqual([1, 2, 3, 4, 5]); // 2-5 asked together, before any of them answered
    expect(p.peak()).toBe(4);
    expect(Math.max(...p.asked)).toBeLessThanOrEqual(5 + 3);
  });

  it("without a page count and speculate 1 (each request paid): strictly one page after another", async () => {
    const p = pages(45, 10, false);
    expect(await walk(p, { window: 8, speculate: 1 })).toEqual([1, 2, 3, 4, 5]);
    expect(p.asked).toEqual([1, 2, 3, 4, 5]);
    expect(p.peak()).toBe(1);
  });

  it("asks for no more pages than the records still wanted need", async () => {
    const p = pages(1000, 10, true);
    const got: number[] = [];
    let wanted = 25;
    for await (const page of walkPages({ fetch: p.fetch, pageSize: 10, wanted: () => wanted, window: 8 })) {
      got.push(page.number);
      wanted -= page.records.length;
      if (wanted <= 0) break;
    }
    expect(got).toEqual([1, 2, 3]);
    expect(p.asked.length).toBeLessThanOrEqual(3);
  });
});
