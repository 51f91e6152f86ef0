// Terminal display width: wide East Asian characters and emoji take two cells, combining marks none.

const WIDE =
  /[\u1100-\u115F\u231A\u231B\u2329\u232A\u23E9-\u23EC\u23F0\u23F3\u25FD\u25FE\u2614\u2615\u2648-\u2653\u267F\u2693\u26A1\u26AA\u26AB\u26BD\u26BE\u26C4\u26C5\u26CE\u26D4\u26EA\u26F2\u26F3\u26F5\u26FA\u26FD\u2705\u270A\u270B\u2728\u274C\u274E\u2753-\u2755\u2757\u2795-\u2797\u27B0\u27BF\u2B1B\u2B1C\u2B50\u2B55\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{1F300}-\u{1F64F}\u{1F680}-\u{1F6FF}\u{1F900}-\u{1F9FF}\u{1FA70}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;
// biome-ignore lint/suspicious/noMisleadingCharacterClass: variation selectors are listed on purpose
const ZERO = /[\p{Mn}\p{Me}\u200B-\u200F\uFE00-\uFE0F]/u;
const SGR = /\x1b\[[0-9;]*m/g;
/** ASCII but ESC: one cell a character, nothing to strip (most cells of a table). */
const NARROW = /^[\x00-\x1a\x1c-\x7f]*$/;

/** Widths of the characters met so far beyond U+02FF (a table repeats the same few: ₀-₉, …). */
const known = new Map<string, number>();
const KNOWN_MAX = 4096;

export function charWidth(ch: string): number {
  // Below U+0300 (ASCII, Latin-1, Latin Extended) nothing is wide or combining.
  if (ch.charCodeAt(0) < 0x300) return 1;
  let width = known.get(ch);
  if (width === undefined) {
    width = ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
    if (known.size < KNOWN_MAX) known.set(ch, width);
  }
  return width;
}

/** U+FE0F asks for the emoji form of the character before it: two cells (❤️), not one (❤). */
const EMOJI_PRESENTATION = "\uFE0F";

/** The cells `ch` adds after a character `before` cells wide. */
function widthAfter(ch: string, before: number): number {
  return ch === EMOJI_PRESENTATION && before === 1 ? 1 : charWidth(ch);
}

/** Cells a string takes on a terminal (colour sequences take none). */
export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  const plain = text.includes("\x1b") ? text.replace(SGR, "") : text;
  let width = 0;
  let last = 0;
  // By UTF-16 unit, not `for...of`: most characters of a line are one cell each (below U+0300),
  // and only the others are looked up; a surrogate pair is taken as the one character it is.
  for (let i = 0; i < plain.length; i++) {
    const unit = plain.charCodeAt(i);
    if (unit < 0x300) {
      width += 1;
      last = 1;
      continue;
    }
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < plain.length;
    const next = pair ? plain.charCodeAt(i + 1) : 0;
    const ch = pair && next >= 0xdc00 && next <= 0xdfff ? plain.slice(i, ++i + 1) : plain[i]!;
    const w = widthAfter(ch, last);
    width += w;
    last = ch === EMOJI_PRESENTATION ? 0 : w;
  }
  return width;
}

/** Cuts to at most `max` cells, never inside a character, marking the cut with an ellipsis. */
export function truncateWidth(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return "";
  let out = "";
  let width = 0;
  let last = 0;
  for (const ch of text) {
    const w = widthAfter(ch, last);
    if (width + w > max - 1) break;
    out += ch;
    width += w;
    last = ch === EMOJI_PRESENTATION ? 0 : w;
  }
  return `${out}…`;
}

export function padEndWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

export function padStartWidth(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - displayWidth(text))) + text;
}
