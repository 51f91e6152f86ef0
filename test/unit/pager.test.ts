import { describe, expect, it } from "vitest";
import { type Page, PageCeilingError, walkPages } from "../../src/api/pager.js";
import { DEFAULT_MAX_PAGES } from "../../src/contract/limits.js";

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

describe("walkPages always ends", () => {
  /** A server answering any page number with `answer(n)`; counts what was asked. */
  function server(answer: (n: number) => Omit<Page, "number">) {
    const asked: number[] = [];
    const fetch = async (n: number): Promise<Page> => {
      asked.push(n);
      await new Promise((r) => setTimeout(r, 1));
      return { number: n, ...answer(n) };
    };
    return { fetch, asked };
  }
  const fresh = (n: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: `${n}-${i}` }));

  async function collect(walk: Parameters<typeof walkPages>[0]) {
    const got: number[] = [];
    let error: unknown;
    try {
      for await (const page of walkPages(walk)) got.push(page.number);
    } catch (e) {
      error = e;
    }
    return { got, error };
  }
  const base = { pageSize: 10, wanted: () => Number.POSITIVE_INFINITY, window: 8, speculate: 4 };

  it("new full pages forever: stops at maxPages with PageCeilingError; past it, at most one page to look", async () => {
    for (const withCount of [false, true]) {
      const s = server((n) => ({
        records: fresh(n, 10),
        pagination: withCount ? { pageSize: 10, pageCount: 1e9 } : undefined,
      }));
      const { got, error } = await collect({ ...base, fetch: s.fetch, maxPages: 7 });
      expect(got).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(error).toBeInstanceOf(PageCeilingError);
      expect((error as Error).message).toMatch(
        withCount
          ? /^stopped at page 7 of 1000000000, the page ceiling/
          : /^stopped at page 7, the page ceiling/,
      );
      // With a page count nothing past the ceiling; without, page 8 tells whether the listing goes on.
      expect(Math.max(...s.asked)).toBe(withCount ? 7 : 8);
    }
  });

  it("the default ceiling is DEFAULT_MAX_PAGES", async () => {
    expect(DEFAULT_MAX_PAGES).toBe(1000);
    const s = server((n) => ({ records: fresh(n, 10), pagination: undefined }));
    const { got, error } = await collect({ ...base, fetch: s.fetch });
    expect(got).toHaveLength(1000);
    expect(error).toBeInstanceOf(PageCeilingError);
    expect(s.asked).toHaveLength(1001);
  });

  it("a walk that ends exactly at the ceiling is complete: no error", async () => {
    const s = server((n) => ({ records: fresh(n, 10), pagination: { pageSize: 10, pageCount: 5 } }));
    const { got, error } = await collect({ ...base, fetch: s.fetch, maxPages: 5 });
    expect(got).toEqual([1, 2, 3, 4, 5]);
    expect(error).toBeUndefined();
    // Without a page count: 5 full pages, then page 6 empty, short or a repeat.
    for (const sixth of [[], fresh(6, 3), fresh(5, 10)]) {
      const t = server((n) => ({ records: n <= 5 ? fresh(n, 10) : sixth, pagination: undefined }));
      const walked = await collect({ ...base, fetch: t.fetch, maxPages: 5 });
      expect(walked.error).toBeUndefined();
      expect(walked.got).toEqual(
        sixth.length === 3 ? [1, 2, 3, 4, 5, 6] : sixth.length ? [1, 2, 3, 4, 5] : [1, 2, 3, 4, 5, 6],
      );
      expect(Math.max(...t.asked)).toBe(6);
    }
  });

  it("a repeated page ends the walk, page count or not, and is not yielded; the note says so", async () => {
    for (const pagination of [undefined, { pageSize: 10, pageCount: 1e9 }]) {
      const notes: string[] = [];
      const s = server(() => ({ records: fresh(1, 10), pagination }));
      const { got, error } = await collect({ ...base, fetch: s.fetch, onRepeat: (n) => notes.push(n) });
      expect(got).toEqual([1]);
      expect(error).toBeUndefined();
      expect(s.asked.length).toBeLessThanOrEqual(1 + 8);
      expect(notes).toEqual(
        pagination
          ? ["page 2 of 1000000000 brought nothing new (every record was already seen); stopped there"]
          : [],
      );
    }
  });

  it("records without ids: a page identical to one already walked ends the walk", async () => {
    const s = server((n) => ({ records: [{ name: `p${Math.min(n, 2)}` }], pagination: undefined }));
    const { got } = await collect({ ...base, pageSize: 0, speculate: 1, fetch: s.fetch });
    expect(got).toEqual([1, 2]);
    expect(s.asked).toEqual([1, 2, 3]);
  });

  it("a page size of 0, negative or absurd cannot make a walk endless", async () => {
    for (const pageSize of [0, -5, 1e15, 0.5]) {
      const s = server((n) => ({ records: fresh(n, 3), pagination: { pageSize } }));
      const { got, error } = await collect({ ...base, fetch: s.fetch });
      expect(got).toEqual([1]); // 3 records: short against the spec's 10 (or the absurd size)
      expect(error).toBeUndefined();
    }
    // An empty page ends the walk even when the page count says more.
    const s = server((n) => ({
      records: n < 3 ? fresh(n, 10) : [],
      pagination: { pageSize: 0, pageCount: 1e9 },
    }));
    const { got } = await collect({ ...base, fetch: s.fetch });
    expect(got).toEqual([1, 2, 3]);
  });
});

describe("walkPages: prefetch", () => {
  /** The pages asked for by the time the consumer holds page 1, and all pages asked in the end. */
  async function askedAtPageOne(opts: { prefetch?: boolean; limit?: number; count?: boolean }) {
    const p = pages(95, 10, opts.count ?? true);
    let remaining = opts.limit ?? Number.POSITIVE_INFINITY;
    let atFirst: number[] = [];
    for await (const page of walkPages({
      fetch: p.fetch,
      pageSize: 10,
      wanted: () => remaining,
      window: 4,
      speculate: 4,
      prefetch: opts.prefetch,
    })) {
      if (page.number === 1) atFirst = [...p.asked];
      remaining -= Math.min(remaining, page.records.length);
      if (remaining <= 0) break;
    }
    return { atFirst, asked: [...p.asked].sort((a, b) => a - b) };
  }

  it("asks for the next pages before page 1 is consumed, only when told to", async () => {
    expect((await askedAtPageOne({ prefetch: true })).atFirst).toEqual([1, 2, 3, 4, 5]);
    expect((await askedAtPageOne({ prefetch: true, count: false })).atFirst).toEqual([1, 2, 3, 4, 5]);
    expect((await askedAtPageOne({ prefetch: false })).atFirst).toEqual([1]);
    expect((await askedAtPageOne({})).atFirst).toEqual([1]);
  });

  it("never asks for more pages than the records still wanted can fill", async () => {
    // 25 wanted: page 1 brings 10, pages 2 and 3 the rest; page 4 is never asked for.
    for (const prefetch of [true, false]) {
      const run = await askedAtPageOne({ prefetch, limit: 25 });
      expect(run.asked, `prefetch ${prefetch}`).toEqual([1, 2, 3]);
    }
    expect((await askedAtPageOne({ prefetch: true, limit: 10 })).asked).toEqual([1]);
  });

  it("still walks every page once, in order", async () => {
    const p = pages(95, 10, true);
    const got: number[] = [];
    for await (const page of walkPages({
      fetch: p.fetch,
      pageSize: 10,
      wanted: () => Infinity,
      window: 4,
      prefetch: true,
    }))
      got.push(page.number);
    expect(got).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...p.asked].sort((a, b) => a - b)).toEqual(got);
  });
});
