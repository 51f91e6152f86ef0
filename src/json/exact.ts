// JSON that keeps every digit. The API mixes decimal strings, JSON numbers and nulls; a JSON number
// whose text does not survive a round trip through a double (more than 15-17 significant digits,
// trailing zeros, exponent forms) is kept as a LosslessNumber holding its original text, and
// written back exactly as the server sent it.

import { MAX_JSON_DEPTH } from "../contract/limits.js";

/** Whether this process has made any LosslessNumber: if not, no walk is needed to write JSON. */
let anyLossless = false;

export class LosslessNumber {
  constructor(readonly raw: string) {
    anyLossless = true;
  }
  valueOf(): number {
    return Number(this.raw);
  }
  toString(): string {
    return this.raw;
  }
}

/** JSON nested deeper than MAX_JSON_DEPTH: refused before it is parsed. */
export class JsonDepthError extends SyntaxError {
  constructor(
    readonly maxDepth: number,
    position: number,
  ) {
    super(`JSON nested deeper than ${maxDepth} levels at position ${position}`);
    this.name = "JsonDepthError";
  }
}

function roundTrips(raw: string): boolean {
  return String(Number(raw)) === raw;
}

/** The index just past the closing quote of the string whose body starts at `from`; -1 if none. */
export function stringEnd(text: string, from: number): number {
  let i = from;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return -1;
    let slash = quote - 1;
    while (slash >= from && text.charCodeAt(slash) === 92) slash--;
    if ((quote - 1 - slash) % 2 === 0) return quote + 1; // an even run of backslashes escapes nothing
    i = quote + 1;
  }
}

/** Whether a character can be part of a number token: digits, sign, point, exponent. */
function isNumberChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69
  );
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Whether the number token text[start, end) certainly survives a double, told without making a
 * string or a double: it follows JSON's grammar without an exponent, has at most 15 characters (so
 * at most 15 significant digits, which a double always holds), is not -0, has no fraction ending in
 * 0, and is not a 0.000000… that String() would write in exponent form. False says only "not
 * certain": roundTrips() decides those.
 */
function plainNumber(text: string, start: number, end: number): boolean {
  if (end - start > 15) return false;
  let i = start;
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  const first = text.charCodeAt(i);
  if (first === 48) {
    i++;
    if (i === end) return !negative;
  } else if (first >= 49 && first <= 57) {
    i++;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    if (i === end) return true;
  } else {
    return false;
  }
  if (text.charCodeAt(i) !== 46) return false;
  const fraction = ++i;
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  if (i !== end || i === fraction || text.charCodeAt(end - 1) === 48) return false;
  if (first === 48) {
    let zeros = 0;
    while (text.charCodeAt(fraction + zeros) === 48) zeros++;
    if (zeros > 5) return false;
  }
  return true;
}

/** Whether the number token `raw` survives a double (exported for tests: plainNumber's claim). */
export function numberTokenRoundTrips(raw: string): { plain: boolean; roundTrips: boolean } {
  return { plain: plainNumber(raw, 0, raw.length), roundTrips: roundTrips(raw) };
}

/**
 * One pass over the text, without regular expressions or recursion (so a 20 MB string or a
 * 100,000-level nesting costs time linear in its length, never the stack): refuses nesting deeper
 * than `maxDepth`, and tells whether some number would lose digits (or its form) through a double.
 * Malformed text is left to the parser to reject.
 */
function scan(text: string, maxDepth: number): boolean {
  let exact = false;
  let depth = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i + 1);
      i = end < 0 ? n : end;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) throw new JsonDepthError(maxDepth, i);
      i++;
    } else if (c === 93 || c === 125) {
      depth--;
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      if (!exact && !plainNumber(text, i, end) && !roundTrips(text.slice(i, end))) exact = true;
      i = end;
    } else {
      i++;
    }
  }
  return exact;
}

/**
 * Whether the text holds at most `limit` opening brackets, strings included: then no nesting in
 * it can be deeper than `limit`, and it can go to the native parser without a scan first.
 */
function fewBrackets(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ["{", "["]) {
    for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) {
      if (++count > limit) return false;
    }
  }
  return true;
}

/** Whether a parsed value holds a number anywhere (its depth is already bounded). */
function holdsNumber(value: unknown): boolean {
  if (typeof value === "number") return true;
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsNumber(value[i])) return true;
    return false;
  }
  const bag = value as Record<string, unknown>;
  for (const key in bag) if (holdsNumber(bag[key])) return true;
  return false;
}

/**
 * Parses JSON text. Uses the native parser unless a number would lose digits. Throws a
 * SyntaxError for invalid text, and a JsonDepthError (a SyntaxError too) for nesting deeper than
 * `maxDepth`.
 *
 * The common case costs one native parse and a walk of what it made: a text with few brackets
 * cannot nest too deep, and a value without numbers has none to lose, so the scan runs only when
 * the text may nest deeper than the limit or holds numbers. Invalid text takes the scanning path
 * too, so it fails with the same error either way.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (fewBrackets(text, maxDepth)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return scanThenParse(text, maxDepth);
    }
    if (!holdsNumber(value) || !scan(text, maxDepth)) return value;
    return new ExactParser(text).parseDocument();
  }
  return scanThenParse(text, maxDepth);
}

function scanThenParse(text: string, maxDepth: number): unknown {
  return scan(text, maxDepth) ? new ExactParser(text).parseDocument() : JSON.parse(text);
}

/** Serializes like JSON.stringify, writing LosslessNumber values as their original text. */
export function stringifyJson(value: unknown, indent = 0): string {
  if (!anyLossless || !containsLossless(value)) return JSON.stringify(value, null, indent) ?? "null";
  return writeValue(value, indent, "");
}

function containsLossless(value: unknown): boolean {
  if (value instanceof LosslessNumber) return true;
  if (Array.isArray(value)) return value.some(containsLossless);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsLossless);
  return false;
}

function writeValue(value: unknown, indent: number, pad: string): string {
  if (value instanceof LosslessNumber) return value.raw;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = indent > 0 ? pad + " ".repeat(indent) : "";
  const nl = indent > 0 ? "\n" : "";
  const colon = indent > 0 ? ": " : ":";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => inner + writeValue(item, indent, inner));
    return `[${nl}${items.join(`,${nl}`)}${nl}${pad}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return "{}";
  const items = entries.map(
    ([key, item]) => `${inner}${JSON.stringify(key)}${colon}${writeValue(item, indent, inner)}`,
  );
  return `{${nl}${items.join(`,${nl}`)}${nl}${pad}}`;
}

class ExactParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  private fail(message: string): never {
    throw new SyntaxError(`${message} at position ${this.pos}`);
  }

  private skipWhitespace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++;
      else break;
    }
  }

  private parseValue(): unknown {
    this.skipWhitespace();
    const c = this.text[this.pos];
    if (c === "{") return this.parseObject();
    if (c === "[") return this.parseArray();
    if (c === '"') return this.parseString();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.parseNumber();
    for (const [word, val] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return val;
      }
    }
    return this.fail(
      c === undefined ? "unexpected end of JSON input" : `unexpected token ${JSON.stringify(c)}`,
    );
  }

  private parseObject(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail("expected a property name");
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      const value = this.parseValue();
      if (key === "__proto__")
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.skipWhitespace();
      const c = this.text[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.fail("expected ',' or '}'");
    }
  }

  private parseArray(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.parseValue());
      this.skipWhitespace();
      const c = this.text[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail("expected ',' or ']'");
    }
  }

  private parseString(): string {
    const end = stringEnd(this.text, this.pos + 1);
    if (end < 0) return this.fail("unterminated string");
    const start = this.pos;
    this.pos = end;
    return JSON.parse(this.text.slice(start, end)) as string;
  }

  private parseNumber(): number | LosslessNumber {
    const t = this.text;
    const start = this.pos;
    let i = start;
    const digits = () => {
      const from = i;
      while (i < t.length && t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57) i++;
      return i - from;
    };
    if (t.charCodeAt(i) === 45) i++;
    const leadingZero = t.charCodeAt(i) === 48;
    const intDigits = digits();
    if (intDigits === 0 || (leadingZero && intDigits > 1)) this.fail("invalid number");
    if (t.charCodeAt(i) === 46) {
      i++;
      if (digits() === 0) this.fail("invalid number");
    }
    if (t.charCodeAt(i) === 101 || t.charCodeAt(i) === 69) {
      i++;
      if (t.charCodeAt(i) === 43 || t.charCodeAt(i) === 45) i++;
      if (digits() === 0) this.fail("invalid number");
    }
    const raw = t.slice(start, i);
    this.pos = i;
    return roundTrips(raw) ? Number(raw) : new LosslessNumber(raw);
  }
}
