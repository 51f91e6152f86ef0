import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompactIdSet } from "../../src/api/id-set.js";

// The walk's set of seen ids: exact like a Set<string>, in a few bytes an id.

describe("CompactIdSet", () => {
  it("spans many arena chunks without losing an id, and never copies what it stored", () => {
    const compact = new CompactIdSet();
    const id = (i: number) =>
      i % 3 === 0 ? `tok-${i}-${"x".repeat(i % 40)}` : i.toString(16).padStart(20, "0");
    // Counted, then checked once: an expect() for each of 230,000 calls took 3.9 s of the suite.
    let added = 0;
    for (let i = 0; i < 200_000; i++) if (compact.add(id(i))) added++;
    expect(added).toBe(200_000);
    // Past a chunk (256 KiB): every id, early or late, is found again, and none is taken for another.
    let foundAgain = 0;
    for (let i = 0; i < 200_000; i += 7) if (!compact.add(id(i))) foundAgain++;
    expect(foundAgain).toBe(Math.ceil(200_000 / 7));
    expect(compact.add(id(200_000))).toBe(true);
    expect(compact.size).toBe(200_001);
    // Chunks of 256 KiB hold the ids (about 13 bytes a hex id, 13 to 60 a text id), and the table
    // its slots: a few bytes over what the ids need, not a second copy.
    expect(compact.bytes).toBeLessThan(6 * 1024 * 1024);
  });

  it("answers as a Set<string> does, for any ids (hex, text, emoji, empty)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.stringMatching(/^[0-9a-f]{0,6}$/),
            fc.string({ maxLength: 6 }),
            fc.string({ unit: "binary", maxLength: 4 }),
            fc.constantFrom("", "a", "A", "0a", "0A", "🚀"),
          ),
          { maxLength: 300 },
        ),
        (ids) => {
          const compact = new CompactIdSet();
          const reference = new Set<string>();
          for (const id of ids) {
            const before = reference.size;
            reference.add(id);
            expect(compact.add(id)).toBe(reference.size > before);
          }
          expect(compact.size).toBe(reference.size);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is exact when every id hashes alike: a hash match is confirmed by the whole id", () => {
    for (const hash of [() => 7, (_bytes: Uint8Array, _start: number, length: number) => length]) {
      const set = new CompactIdSet(hash);
      const ids = ["ab", "AB", "ba", "abab", "ab\u0000", "a", "b", "0a0a", "🚀", "x🚀", "00"];
      for (const id of ids) expect(set.add(id), id).toBe(true);
      for (const id of ids) expect(set.add(id), id).toBe(false);
      expect(set.size).toBe(ids.length);
    }
  });

  it("doubles its table without holding two: the old one is let go before every id is rehashed", () => {
    const CHUNK = 256 * 1024;
    let rehashed = 0;
    const held: number[] = [];
    const set: CompactIdSet = new CompactIdSet((bytes, start, length) => {
      // Rehashing reads the arena's chunks; a lookup reads the one id being added.
      if (bytes.length === CHUNK) {
        rehashed++;
        held.push(set.bytes % CHUNK); // the table's bytes beside the chunks'
      }
      let h = 0;
      for (let i = start; i < start + length; i++) h = Math.imul(h ^ bytes[i]!, 16777619);
      return h >>> 0;
    });
    for (let n = 0; n < 3000; n++) set.add(`id-${n}`);
    // 1024 slots, then 2048 at 820 ids, 4096 at 1639: each grow rehashes every id in the arena.
    expect(rehashed).toBe(820 + 1639);
    expect(new Set(held)).toEqual(new Set([0]));
    for (let n = 0; n < 3000; n++) expect(set.add(`id-${n}`)).toBe(false);
  });

  it("holds 400,000 hex ids, every one once, in under 32 bytes an id", () => {
    const set = new CompactIdSet();
    const id = (n: number) => `${n.toString(16).padStart(8, "0")}000000000000b45e`;
    let added = 0;
    for (let n = 0; n < 400_000; n++) if (set.add(id(n))) added++;
    expect(added).toBe(400_000);
    // Repeats from anywhere in the walk are found, and new ones still added.
    for (const n of [0, 1, 199_999, 399_999]) expect(set.add(id(n))).toBe(false);
    expect(set.add(id(400_000))).toBe(true);
    expect(set.size).toBe(400_001);
    expect(set.bytes / 400_001).toBeLessThan(32);
  });
});
