// JSON that keeps every digit. The API mixes decimal strings, JSON numbers and nulls; a JSON number
// whose text does not survive a round trip through a double (more than 15-17 significant digits,
// trailing zeros, exponent forms) is kept as a LosslessNumber holding its original text, and
// written back exactly as the server sent it.

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

// Strings or numbers: strings are matched whole so that digits inside them (timestamps, decimal
// strings) are skipped; only real number tokens are checked.
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

function roundTrips(raw: string): boolean {
  return String(Number(raw)) === raw;
}

/** True when some number in the text would lose digits (or its form) through a double. */
function needsExactNumbers(text: string): boolean {
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    const token = m[0];
    if (token.charCodeAt(0) !== 34 && !roundTrips(token)) return true;
  }
  return false;
}

/** Parses JSON text. Uses the native parser unless a number would lose digits. */
export function parseJson(text: string): unknown {
  return needsExactNumbers(text) ? new ExactParser(text).parseDocument() : JSON.parse(text);
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
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const items = entries.map(
    ([k, v]) => `${inner}${JSON.stringify(k)}${colon}${writeValue(v, indent, inner)}`,
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
    const start = this.pos;
    this.pos++;
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 34) {
        this.pos++;
        return JSON.parse(t.slice(start, this.pos)) as string;
      }
      if (c === 92) this.pos += 2;
      else this.pos++;
    }
    return this.fail("unterminated string");
  }

  private parseNumber(): number | LosslessNumber {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(
      this.text.slice(this.pos, this.pos + 400),
    );
    if (!match) this.fail("invalid number");
    const raw = match[0];
    this.pos += raw.length;
    return roundTrips(raw) ? Number(raw) : new LosslessNumber(raw);
  }
}
