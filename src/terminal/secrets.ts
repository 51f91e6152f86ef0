// A secret echoed back by a server rarely comes back as sent: a key with `+ / = &` or spaces shows
// up percent-encoded (either hex case), form-encoded, JSON-escaped or in base64; a server may also
// upper- or lower-case it, write its bytes in hex, or wrap it across lines. The redactor matches
// every one of those forms, so no encoding of the key reaches the user's screen or logs.

/** Base64 runs shorter than this are not redacted (too likely to match ordinary text). */
const MIN_BASE64_CORE = 6;

/**
 * Secrets shorter than this are matched only in their own letters' case and unbroken: a short key
 * upper-cased, or split across two lines, too often stands in ordinary text.
 */
const MIN_VARIANT_LENGTH = 8;

/**
 * A line break inside the secret, as a server wrapping long lines writes it: LF or CRLF, raw or
 * JSON-escaped, and the next line's indentation (spaces and tabs, a tab raw or escaped); or the
 * spaces a line break becomes where text is made one line before it is redacted.
 */
const LINE_BREAK = String.raw`(?:(?:\r?\n|(?:\\r)?\\n)(?:[ \t]|\\t)*|[ \t]+)?`;

/** The characters a raw break is made of: a break stands only between two characters that are not. */
const BLANKS = [" ", "\n", "\t", "\r"];
const isBlank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * One character of the secret in any of its textual encodings: as is, percent-encoded byte by byte
 * (upper or lower case hex, or encoded twice as %25XX), `+` for a space (form encoding), and the
 * JSON escapes \/ and \uXXXX.
 */
function characterPattern(ch: string): string {
  const bytes = [...Buffer.from(ch, "utf8")];
  const hex = (byte: number) => {
    const h = byte.toString(16).padStart(2, "0");
    return `[${h[0]}${h[0]!.toUpperCase()}][${h[1]}${h[1]!.toUpperCase()}]`;
  };
  const forms = [escapeRegExp(ch), bytes.map((byte) => `%(?:25)?${hex(byte)}`).join("")];
  if (ch === " ") forms.push("\\+");
  if (ch === "/") forms.push("\\\\/");
  const code = ch.codePointAt(0)!;
  if (code <= 0xffff) {
    const h = code.toString(16).padStart(4, "0");
    forms.push(`\\\\u${[...h].map((digit) => `[${digit}${digit.toUpperCase()}]`).join("")}`);
  }
  return `(?:${forms.join("|")})`;
}

/** The text forms the secret takes before it is base64-encoded. */
function encodedForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams({ k: secret }).toString().slice(2);
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (encoded) => encoded.toLowerCase());
  return [...new Set([secret, uri, lower(uri), form, lower(form)])];
}

/**
 * The part of base64(text) that does not depend on what stands before or after the text, for each
 * of the three ways it can be aligned inside a longer base64 string; in both alphabets.
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, "utf8");
  const cores: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString("base64");
    // Skip the first group when it holds leading bytes; the last when it holds trailing ones.
    const start = lead === 0 ? 0 : 4;
    const whole = (lead + bytes.length) % 3 === 0;
    const end = whole ? encoded.length : encoded.length - 4;
    let core = encoded.slice(start, Math.max(start, end));
    // Padded full encoding of the text alone is the most common form: keep it whole.
    if (lead === 0) cores.push(bytes.toString("base64"), bytes.toString("base64url"));
    if (core.length < MIN_BASE64_CORE) continue;
    core = core.replace(/=+$/, "");
    cores.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return cores.filter((c) => c.length >= MIN_BASE64_CORE);
}

/** Its UTF-8 bytes in hex, lower and upper case. */
function hexForms(secret: string): string[] {
  const hex = Buffer.from(secret, "utf8").toString("hex");
  return [hex, hex.toUpperCase()];
}

/**
 * Two neighbouring characters as one small integer: 14 bits of the last UTF-16 unit of one and of
 * the first of the next. Pairs that share it only cost a reading: each candidate is read in full.
 */
const pairOf = (before: number, after: number) => ((before & 0x3fff) << 14) | (after & 0x3fff);

/** Whether a break may stand between these two characters of the secret (neither is blank). */
const breakable = (before: string, after: string) =>
  !isBlank(before.charCodeAt(before.length - 1)) && !isBlank(after.charCodeAt(0));

/**
 * Where a variant may be broken: for each pair of characters either side of a break, the variant
 * without its blanks and the index in it of the character after the break.
 */
export type BreakPoints = ReadonlyMap<number, ReadonlyArray<readonly [string, number]>>;

/**
 * A variant's pattern, a break allowed between two characters that are not blank (`split`); and
 * where those breaks stand, added to `points`.
 */
function variantPattern(
  variant: string,
  split: boolean,
  points: Map<number, Array<[string, number]>>,
): string {
  const chars = [...variant];
  const solid = chars.filter((ch) => !isBlank(ch.charCodeAt(0))).join("");
  let pattern = characterPattern(chars[0] ?? "");
  let at = isBlank(variant.charCodeAt(0)) ? 0 : (chars[0]?.length ?? 0);
  for (let i = 1; i < chars.length; i++) {
    const [before, after] = [chars[i - 1]!, chars[i]!];
    if (split && breakable(before, after)) {
      const pair = pairOf(before.charCodeAt(before.length - 1), after.charCodeAt(0));
      points.set(pair, [...(points.get(pair) ?? []), [solid, at]]);
      pattern += LINE_BREAK;
    }
    pattern += characterPattern(after);
    if (!isBlank(after.charCodeAt(0))) at += after.length;
  }
  return pattern;
}

/**
 * A secret's forms: `pattern` matches every one (global, for replace); `anchors` are strings of
 * which every match holds at least one, or else `breaks` names the match's raw line break, so
 * that text holding no anchor and no such break is passed over without running the pattern (a
 * 100,000-record stream spent a twentieth of its time in it). A match is a variant of the secret
 * itself (each an anchor), a hex form or a base64 core (each an anchor), or has one character or
 * more encoded, which writes `%` or `\` in it (or `+`, for a space), or a JSON-escaped line break
 * (`\`), or a raw one (or the spaces left of one) between two characters written as is, which
 * `breaks` holds as a pair.
 */
export interface SecretForms {
  readonly pattern: RegExp;
  readonly anchors: readonly string[];
  readonly breaks: BreakPoints;
}

export function secretForms(secret: string): SecretForms {
  const cores: string[] = [];
  for (const form of encodedForms(secret)) cores.push(...base64Cores(form));
  const split = [...secret].length >= MIN_VARIANT_LENGTH;
  const variants = split ? [...new Set([secret, secret.toUpperCase(), secret.toLowerCase()])] : [secret];
  const breaks = new Map<number, Array<[string, number]>>();
  const written = variants.map((v) => variantPattern(v, split, breaks));
  const hex = hexForms(secret);
  const alternatives = [...written, ...hex, ...cores.map(escapeRegExp)];
  const unique = [...new Set(alternatives)].sort((a, b) => b.length - a.length);
  const spaced = secret.includes(" ") ? ["+"] : [];
  const candidates = [...new Set([...variants, ...hex, "%", "\\", ...cores, ...spaced])];
  // An anchor that holds another is never needed: text holding it holds the other.
  const anchors = candidates.filter(
    (candidate) => !candidates.some((other) => other !== candidate && candidate.includes(other)),
  );
  return { pattern: new RegExp(unique.join("|"), "g"), anchors, breaks };
}

/**
 * Whether the text holds a variant broken by runs of blanks (raw line breaks, or the spaces left of
 * them) and otherwise written as is: called only on text without an anchor, where no character of
 * a match can be encoded. Each run of blanks between a pair of `breaks` is read outwards, blanks
 * passed over, against the variant.
 */
function splitInside(text: string, breaks: BreakPoints): boolean {
  if (breaks.size === 0) return false;
  for (const blank of BLANKS) {
    for (let at = text.indexOf(blank); at !== -1; at = text.indexOf(blank, at + 1)) {
      // Each run once, from its first blank.
      if (at === 0 || isBlank(text.charCodeAt(at - 1))) continue;
      let end = at + 1;
      while (end < text.length && isBlank(text.charCodeAt(end))) end++;
      const points = breaks.get(pairOf(text.charCodeAt(at - 1), text.charCodeAt(end)));
      if (points?.some(([solid, index]) => reads(text, at - 1, end, solid, index))) return true;
    }
  }
  return false;
}

/** Whether `solid` stands in the text, blanks passed over, its `index` at `after` and the one before at `before`. */
function reads(text: string, before: number, after: number, solid: string, index: number): boolean {
  for (let i = index - 1, t = before; i >= 0; i--, t--) {
    while (t >= 0 && isBlank(text.charCodeAt(t))) t--;
    if (t < 0 || text.charCodeAt(t) !== solid.charCodeAt(i)) return false;
  }
  for (let i = index, t = after; i < solid.length; i++, t++) {
    while (t < text.length && isBlank(text.charCodeAt(t))) t++;
    if (t >= text.length || text.charCodeAt(t) !== solid.charCodeAt(i)) return false;
  }
  return true;
}

/** Replaces every form of every secret with ***. */
export function redactSecrets(text: string, secrets: Iterable<SecretForms>): string {
  let out = text;
  for (const { pattern, anchors, breaks } of secrets) {
    if (anchors.some((anchor) => out.includes(anchor)) || splitInside(out, breaks))
      out = out.replace(pattern, "***");
  }
  return out;
}
