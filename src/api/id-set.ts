// The set of record ids a walk has seen, to drop the repeats a server sends on later pages, exactly
// and in a few bytes an id: a JavaScript Set of strings costs ~130 bytes a record, so a stream of
// 400,000 records held ~40 MB more than one of 100,000.
//
// Each id is written once into a byte arena, in a canonical form (lower-case hex ids, the usual
// form, packed two digits a byte; any other id as UTF-8), and an open-addressing table of arena
// offsets finds it by a hash of those bytes. The arena is a list of fixed 256 KiB chunks, filled
// in turn and never copied: growing one large buffer held two copies at once and left the freed
// one in the allocator's heap, so a 400,000-record stream peaked ~10 MB above its need. A lookup compares the whole id, byte for byte, so two
// ids are never taken for one: the set is exact. About 20 bytes a 20-digit hex id.

const EMPTY = 0;
const UTF8 = 1;
const HEX = 2;
/** Ids longer than this (none in practice) are kept in a plain Set. */
const MAX_ID_LENGTH = 16_384;
const MAX_LOAD = 0.8;
/** Bytes a chunk of the arena holds (a power of two: an offset is its chunk and its place). */
const CHUNK_BITS = 18;
const CHUNK = 1 << CHUNK_BITS;

const encoder = new TextEncoder();
const NO_SLOTS = new Int32Array(0);

/** A hash of `length` bytes from `start`. */
type Hash = (bytes: Uint8Array, start: number, length: number) => number;

const fnv1a: Hash = (bytes, start, length) => {
  let h = 0x811c9dc5;
  for (let i = start; i < start + length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

function isLowerHex(text: string): boolean {
  if (text.length % 2 !== 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

const nibble = (code: number) => (code <= 57 ? code - 48 : code - 87);

export class CompactIdSet {
  /** Arena offset + 1 of each slot's id (0: empty). */
  private slots = new Int32Array(1024);
  private readonly chunks: Uint8Array[] = [new Uint8Array(CHUNK)];
  /** Bytes used in each full chunk (the ids end where the next would not fit). */
  private readonly ends: number[] = [];
  /** Bytes used in the last chunk. */
  private used = 0;
  private count = 0;
  private readonly long = new Set<string>();
  /** The id being looked up, in its canonical form: [kind][length: 2 bytes][payload]. */
  private key = new Uint8Array(512);
  private keyLength = 0;

  /** `hash` is for tests, which force collisions to show that a match is confirmed by the id. */
  constructor(private readonly hash: Hash = fnv1a) {}

  get size(): number {
    return this.count + this.long.size;
  }

  /** Bytes held, for tests and the benchmark. */
  get bytes(): number {
    return this.slots.byteLength + this.chunks.length * CHUNK;
  }

  /** Adds the id; false when it was already in the set. */
  add(id: string): boolean {
    if (id.length > MAX_ID_LENGTH) {
      const before = this.long.size;
      this.long.add(id);
      return this.long.size > before;
    }
    this.encode(id);
    const mask = this.slots.length - 1;
    let i = this.hash(this.key, 0, this.keyLength) & mask;
    for (;;) {
      const at = this.slots[i]!;
      if (at === EMPTY) break;
      if (this.sameAsKey(at - 1)) return false;
      i = (i + 1) & mask;
    }
    this.slots[i] = this.store() + 1;
    this.count++;
    if (this.count > this.slots.length * MAX_LOAD) this.grow();
    return true;
  }

  /** The id's canonical bytes into `key`. */
  private encode(id: string): void {
    const hex = isLowerHex(id);
    const room = 3 + (hex ? id.length / 2 : id.length * 3);
    if (this.key.length < room) this.key = new Uint8Array(room);
    let length: number;
    if (hex) {
      length = id.length / 2;
      for (let k = 0; k < length; k++)
        this.key[3 + k] = (nibble(id.charCodeAt(2 * k)) << 4) | nibble(id.charCodeAt(2 * k + 1));
    } else {
      length = encoder.encodeInto(id, this.key.subarray(3)).written;
    }
    this.key[0] = hex ? HEX : UTF8;
    this.key[1] = length >> 8;
    this.key[2] = length & 0xff;
    this.keyLength = 3 + length;
  }

  private sameAsKey(at: number): boolean {
    const chunk = this.chunks[at >>> CHUNK_BITS]!;
    const start = at & (CHUNK - 1);
    const n = this.keyLength;
    for (let k = 0; k < n; k++) if (chunk[start + k] !== this.key[k]) return false;
    return true;
  }

  /** Writes the key into the arena; its offset (chunk and place). An id never spans two chunks. */
  private store(): number {
    const n = this.keyLength;
    if (this.used + n > CHUNK) {
      this.ends.push(this.used);
      this.chunks.push(new Uint8Array(CHUNK));
      this.used = 0;
    }
    const at = this.used;
    this.chunks[this.chunks.length - 1]!.set(this.key.subarray(0, n), at);
    this.used += n;
    return ((this.chunks.length - 1) << CHUNK_BITS) | at;
  }

  /**
   * Doubles the table, rehashing every id from the arena rather than moving it from the old table:
   * the old table is let go before the new one is made, so the set never holds two (at 209,716
   * ids: 1 MiB and 2 MiB), and nothing is allocated an id.
   */
  private grow(): void {
    const size = this.slots.length * 2;
    this.slots = NO_SLOTS;
    const slots = new Int32Array(size);
    const mask = size - 1;
    const last = this.chunks.length - 1;
    for (let c = 0; c <= last; c++) {
      const chunk = this.chunks[c]!;
      const end = c === last ? this.used : this.ends[c]!;
      for (let at = 0; at < end; ) {
        const length = 3 + ((chunk[at + 1]! << 8) | chunk[at + 2]!);
        let i = this.hash(chunk, at, length) & mask;
        while (slots[i] !== EMPTY) i = (i + 1) & mask;
        slots[i] = ((c << CHUNK_BITS) | at) + 1;
        at += length;
      }
    }
    this.slots = slots;
  }
}
