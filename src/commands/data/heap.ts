import { setFlagsFromString } from "node:v8";

// A stream of records (NDJSON, page after page) makes garbage at a steady rate and keeps almost
// nothing: each page is parsed, written and dropped. V8 still doubles its young generation (up to
// 16 MB a semi-space, 32 MB in all) whenever enough bytes survived its collections, and the pages
// in flight always survive one: a 100,000-record run ends with some 20 MB more resident memory
// for no gain in speed. Growth factor 1 keeps the young generation at its starting size. The flag
// is read each time V8 would grow it, so setting it at run time works (Node 20 to 26).
// Maglev, the mid-tier compiler Node 22 and later turn on, keeps ~8-10 MB of compiled code and
// compiler memory for the same loop TurboFan optimises anyway: off for a stream (rate unchanged,
// measured on Node 24 and 26; Node 20 never used it). --optimize-for-size, once here too, saved no
// memory once pages were read without a stream each, and cost 2-4% of the rate.

let set = false;

/** Keeps V8's young generation at its starting size, and Maglev off, for the rest of the process. */
export function keepYoungGenerationSmall(): void {
  if (set) return;
  set = true;
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--no-maglev");
}
