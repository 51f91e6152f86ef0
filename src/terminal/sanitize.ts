// Strings from the server are untrusted: a token named with ANSI or OSC sequences must not be able
// to rewrite the user's terminal. Everything printed to a terminal goes through here.

// ESC-introduced sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC
// (ESC P/X/^/_ ... ST) and two-byte escapes; plus the 8-bit C1 forms of the same.
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[@-Z\\-_]?/g;
// Remaining C0 and C1 control characters, DEL, and bidi overrides that can disguise text.
const CONTROL = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Printable ASCII: nothing to remove (most strings). */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** Removes escape sequences and control characters; newlines and tabs become spaces. */
export function sanitizeInline(text: string): string {
  if (PRINTABLE.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, "")
    .replace(/[\r\n\t]+/g, " ")
    .replace(CONTROL, "");
}

/** Like sanitizeInline, but keeps line breaks (for multi-line text such as an answer). */
export function sanitizeBlock(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, "")
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, "  ")
    .replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, "");
}

// Characters that act on a terminal rather than show: C0 controls but newline and tab, DEL, C1
// (U+0080-U+009F, including the 8-bit CSI U+009B) and the bidi controls that reorder text.
const TERMINAL_ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes text inert for a terminal without losing it: each active character becomes a visible
 * \uXXXX escape (CRLF line ends stay). On JSON text the result is the same JSON (such characters
 * can only stand inside strings, where the escape means the same), so `json`, `ndjson` and `api`
 * output stays exact JSON on a terminal.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(TERMINAL_ACTIVE, (ch, offset: number) =>
    ch === "\r" && text[offset + 1] === "\n" ? ch : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The most characters a message quotes of one text from a server; the rest is cut, and said so. */
export const MAX_QUOTED_CHARS = 200;

/**
 * Text from a server as a message quotes it: one line (sanitizeInline), its first `max` characters
 * and how many more were cut, so that a field of megabytes costs a line, not the screen.
 */
export function quoteInline(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return sanitizeInline(text);
  // Never half of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[max - 1]!) ? max - 1 : max;
  return `${sanitizeInline(text.slice(0, end))}… (${text.length - end} more characters cut)`;
}
