// A secret echoed back by a server rarely comes back as sent: a key with `+ / = &` or spaces shows
// up percent-encoded (either hex case), form-encoded, JSON-escaped or in base64. The redactor
// matches every one of those forms, so no encoding of the key reaches the user's screen or logs.

/** Base64 runs shorter than this are not redacted (too likely to match ordinary text). */
const MIN_BASE64_CORE = 6;

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
  const hex = (b: number) => {
    const h = b.toString(16).padStart(2, "0");
    return `[${h[0]}${h[0]!.toUpperCase()}][${h[1]}${h[1]!.toUpperCase()}]`;
  };
  const forms = [escapeRegExp(ch), bytes.map((b) => `%(?:25)?${hex(b)}`).join("")];
  if (ch === " ") forms.push("\\+");
  if (ch === "/") forms.push("\\\\/");
  const code = ch.codePointAt(0)!;
  if (code <= 0xffff) {
    const h = code.toString(16).padStart(4, "0");
    forms.push(`\\\\u${[...h].map((d) => `[${d}${d.toUpperCase()}]`).join("")}`);
  }
  return `(?:${forms.join("|")})`;
}

/** The text forms the secret takes before it is base64-encoded. */
function encodedForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams({ k: secret }).toString().slice(2);
  const lower = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
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

/**
 * A secret's forms: `pattern` matches every one (global, for replace); `anchors` are strings of
 * which every match holds at least one, so that text holding none of them is passed over without
 * running the pattern (a 100,000-record stream spent a twentieth of its time in it). A match is the
 * secret itself, or a base64 core (each an anchor), or has one character or more encoded, which
 * writes `%` or `\` in it (or `+`, for a space).
 */
export interface SecretForms {
  readonly pattern: RegExp;
  readonly anchors: readonly string[];
}

export function secretForms(secret: string): SecretForms {
  const cores: string[] = [];
  for (const form of encodedForms(secret)) cores.push(...base64Cores(form));
  const alternatives = [[...secret].map(characterPattern).join(""), ...cores.map(escapeRegExp)];
  const unique = [...new Set(alternatives)].sort((a, b) => b.length - a.length);
  const candidates = [...new Set([secret, "%", "\\", ...cores, ...(secret.includes(" ") ? ["+"] : [])])];
  // An anchor that holds another is never needed: text holding it holds the other.
  const anchors = candidates.filter((a) => !candidates.some((b) => b !== a && a.includes(b)));
  return { pattern: new RegExp(unique.join("|"), "g"), anchors };
}

/** Replaces every form of every secret with ***. */
export function redactSecrets(text: string, secrets: Iterable<SecretForms>): string {
  let out = text;
  for (const { pattern, anchors } of secrets) {
    if (anchors.some((anchor) => out.includes(anchor))) out = out.replace(pattern, "***");
  }
  return out;
}
