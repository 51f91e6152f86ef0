import { eastAsianWidth } from "get-east-asian-width";

// Terminal display width, by grapheme cluster (what a terminal draws in one place: a letter and
// its accents, a flag, a keycap, a family joined by ZWJ). An emoji sequence takes two cells; any
// other cluster the cells of its characters, each by its East Asian Width in the Unicode tables
// (get-east-asian-width), marks and invisible characters none. Terminals advance so over the
// characters of a Devanagari conjunct (हिन्दी: five cells), and a Hangul syllable spelt in jamo takes
// the two cells of its first one.

const SGR = /\x1b\[[0-9;]*m/g;
/** ASCII but ESC: one cell a character, nothing to strip (most cells of a table). */
const NARROW = /^[\x00-\x1a\x1c-\x7f]*$/;
/** Below U+0300 but ESC: one cell a character, each a cluster of its own (CR LF aside). */
const SIMPLE = /^[\x00-\x1a\x1c-\u02ff]*$/;
/**
 * A pattern made on first use: a Unicode property class costs ~1 ms to build, at every start that
 * would otherwise make it (most runs measure no character past U+02FF).
 */
function lazyPattern(make: () => RegExp): () => RegExp {
  let pattern: RegExp | undefined;
  return () => {
    pattern ??= make();
    return pattern;
  };
}

/**
 * Characters that draw nothing: combining marks, ZWJ, ZWSP, variation selectors, other default-
 * ignorables; but the Hangul fillers (letters, ㅤ U+3164) show as the blank cells they are.
 */
const invisible = lazyPattern(() => /^(?!\p{Lo})[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]$/u);
/**
 * Two cells whatever the base: the emoji form asked for (U+FE0F: ❤️, the keycap 1️⃣), a skin tone
 * (☝🏽), a flag (two regional indicators), emoji joined by ZWJ (👨‍👩‍👧‍👦).
 */
const emojiSequence = lazyPattern(
  () =>
    /\uFE0F|\p{Emoji_Modifier}|^\p{Regional_Indicator}\p{Regional_Indicator}|^\p{Extended_Pictographic}.*\u200D\p{Extended_Pictographic}/u,
);

/**
 * The characters a cluster's width can depend on beyond the sum of its characters' (the parts of
 * an emoji sequence, Hangul vowel and final jamo). Text without them is measured by character,
 * without cutting it into clusters (Intl.Segmenter loads its break rules on first use: ~17 ms).
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each of these characters is looked for on its own
const JOINED = /[\uFE0F\u200D\u1160-\u11FF\uD7B0-\uD7FF\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}]/u;

/** Widths of the clusters (and runs of them) met so far beyond U+02FF: a table repeats the same few (₀-₉, …). */
const known = new Map<string, number>();
const KNOWN_MAX = 4096;
/** Longer runs (a whole name in CJK) are measured each time rather than kept. */
const KNOWN_LENGTH = 32;

let segmenter: Intl.Segmenter | undefined;
/** The grapheme clusters of a text. */
function clusters(text: string): Iterable<Intl.SegmentData> {
  segmenter ??= new Intl.Segmenter();
  return segmenter.segment(text);
}

/** Cells one grapheme cluster takes (a character on its own is a cluster). */
export function charWidth(cluster: string): number {
  // Below U+0300 (ASCII, Latin-1, Latin Extended) a character alone is one cell.
  if (cluster.length === 1 && cluster.charCodeAt(0) < 0x300) return 1;
  if (cluster.length > 1 && emojiSequence().test(cluster)) return 2;
  let width = 0;
  let inside = false;
  for (const ch of cluster) {
    width += codePointWidth(ch, inside);
    inside = true;
  }
  return width;
}

/** Cells of one character, `inside` a cluster (after its first character) or leading it. */
function codePointWidth(ch: string, inside: boolean): number {
  const code = ch.codePointAt(0)!;
  if (code < 0x300) return 1;
  if (invisible().test(ch)) return 0;
  // Hangul vowel and final consonant jamo join the syllable their initial consonant draws.
  if (inside && ((code >= 0x1160 && code <= 0x11ff) || (code >= 0xd7b0 && code <= 0xd7ff))) return 0;
  return eastAsianWidth(code);
}

/** Cells of a stretch of text that holds characters at or past U+0300 (and a base before them). */
function runWidth(run: string): number {
  let width = known.get(run);
  if (width !== undefined) return width;
  width = 0;
  if (JOINED.test(run)) {
    for (const { segment } of clusters(run)) width += charWidth(segment);
  } else {
    for (const ch of run) width += codePointWidth(ch, false);
  }
  if (run.length <= KNOWN_LENGTH && known.size < KNOWN_MAX) known.set(run, width);
  return width;
}

/**
 * Where the stretch of text that starts at `start` (a character at or past U+0300, or the base
 * before one) ends: a character below U+0300 followed by another such (or by the end) stands alone,
 * as nothing below U+0300 joins a cluster to what came before it.
 */
function runEnd(text: string, start: number): number {
  let end = start + 1;
  while (
    end < text.length &&
    (text.charCodeAt(end) >= 0x300 || (end + 1 < text.length && text.charCodeAt(end + 1) >= 0x300))
  )
    end++;
  return end;
}

/** Cells a string takes on a terminal (colour sequences take none). */
export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  const plain = text.includes("\x1b") ? text.replace(SGR, "") : text;
  let width = 0;
  // Most characters of a line are one cell each (below U+0300 and not the base of a cluster): they
  // are counted by UTF-16 unit, and only the stretches around the others are looked up.
  for (let i = 0; i < plain.length; ) {
    if (plain.charCodeAt(i) < 0x300 && (i + 1 === plain.length || plain.charCodeAt(i + 1) < 0x300)) {
      width += 1;
      i++;
      continue;
    }
    const end = runEnd(plain, i);
    width += runWidth(plain.slice(i, end));
    i = end;
  }
  return width;
}

/** Cuts to at most `max` cells, never inside a cluster, marking the cut with an ellipsis. */
export function truncateWidth(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return "";
  if (SIMPLE.test(text)) return `${text.slice(0, max - 1)}…`;
  let out = "";
  let width = 0;
  for (const { segment } of clusters(text)) {
    const w = charWidth(segment);
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  return `${out}…`;
}

export function padEndWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

export function padStartWidth(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - displayWidth(text))) + text;
}

/** Rows of plain text in columns two spaces apart, each as wide as its widest cell; no trailing space. */
export function alignColumns(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => displayWidth(row[column] ?? ""))),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) => padEndWidth(cell, widths[column]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
