import { readSync } from "node:fs";

// The payment ledger read from its end, line by line, in time linear in the bytes read: each chunk
// is searched for line ends once, and a line's pieces are joined once, when its start is found. A
// line longer than MAX_LINE_BYTES (a damaged tail with no line end, megabytes of it) is not held
// whole: only its start is kept, to say what it was.

/** A line as the tail reader hands it over. */
export interface TailLine {
  /** The whole line; undefined when it is longer than MAX_LINE_BYTES. */
  text: string | undefined;
  /** Its first bytes (enough to say what kind of line it is and when it was written). */
  head: string;
}

/** Longer than any line tokenintel writes (fields are bounded) or wrote (a command line is < 2 MiB). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const HEAD_BYTES = 256;

function readRange(fd: number, start: number, end: number): Buffer {
  const chunk = Buffer.alloc(end - start);
  for (let at = 0; at < chunk.length; ) {
    const n = readSync(fd, chunk, at, chunk.length - at, start + at);
    if (n === 0) throw new Error("the file shrank while it was read");
    at += n;
  }
  return chunk;
}

/** Lines from the last to the first (empty ones skipped), while `visit` returns true. */
export function readLinesBackward(fd: number, size: number, visit: (line: TailLine) => boolean): void {
  // The current line's pieces, the one read last (nearest the line's start) last; past the bound,
  // only the two nearest its start.
  let pieces: Buffer[] = [];
  let bytes = 0;
  const keep = (piece: Buffer) => {
    if (piece.length === 0) return;
    bytes += piece.length;
    if (bytes > MAX_LINE_BYTES) pieces = [...pieces.slice(-1), piece];
    else pieces.push(piece);
  };
  const emit = (): boolean => {
    if (bytes === 0) return true;
    const joined = Buffer.concat(pieces.reverse());
    const line = {
      text: bytes <= MAX_LINE_BYTES ? joined.toString("utf8") : undefined,
      head: joined.toString("utf8", 0, Math.min(HEAD_BYTES, joined.length)),
    };
    pieces = [];
    bytes = 0;
    return visit(line);
  };
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const chunk = readRange(fd, start, end);
    let pos = chunk.length;
    while (pos > 0) {
      const nl = chunk.lastIndexOf(0x0a, pos - 1);
      if (nl < 0) break;
      keep(chunk.subarray(nl + 1, pos));
      if (!emit()) return;
      pos = nl;
    }
    keep(chunk.subarray(0, pos));
    end = start;
  }
  emit();
}
