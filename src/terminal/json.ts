import { stringEnd } from "../json/exact.js";
import { escapeForTerminal } from "./sanitize.js";

// JSON for a person at a terminal, as jq and `gh api` show it: indented, keys, strings, numbers and
// literals in their own colours. It works on the JSON *text*, token by token, never through
// JSON.parse: every number is copied digit for digit (0.000000000000000000123456789 stays so), key
// order and duplicate keys stay as sent. Each string token is made inert (escapeForTerminal) before
// it is wrapped in colour, so the only escape sequences in the result are the colours added here.

/** SGR colours close to jq's and gh's: keys bold blue, strings green, numbers cyan, booleans yellow, null grey. */
const COLOR = {
  key: "\x1b[1;34m",
  string: "\x1b[32m",
  number: "\x1b[36m",
  boolean: "\x1b[33m",
  null: "\x1b[90m",
} as const;
const RESET = "\x1b[0m";
const INDENT = "  ";

export interface JsonTerminalOptions {
  /** Lay the text out again, two spaces a level, one top-level value a line; else keep its whitespace. */
  indent: boolean;
  /** Wrap keys, strings, numbers and literals in colours. */
  color: boolean;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \n\r\t]*/y;

/**
 * JSON text (one document, or several values such as NDJSON lines) shown for a terminal; undefined
 * when the text is not JSON (the caller shows it made inert instead).
 */
export function formatJsonForTerminal(text: string, options: JsonTerminalOptions): string | undefined {
  return new Painter(text, options).paint();
}

/** What may come next: a value, an object key, the colon after a key, or a comma/closing bracket. */
type Want = "value" | "key" | "colon" | "next";

/** One pass over the text, token by token; each step says whether the text is still JSON. */
class Painter {
  private out = "";
  private i = 0;
  /** true for an object, false for an array, innermost last */
  private readonly stack: boolean[] = [];
  private want: Want = "value";

  constructor(
    private readonly text: string,
    private readonly options: JsonTerminalOptions,
  ) {}

  paint(): string | undefined {
    const { text } = this;
    for (this.space(); this.i < text.length; this.space()) {
      if (this.want === "next" && this.inObject === undefined) {
        // Another top-level value (NDJSON): one a line when laid out.
        this.want = "value";
        if (this.options.indent) this.out += "\n";
      }
      if (!this.token(text.charCodeAt(this.i))) return undefined;
    }
    if (this.want !== "next" || this.stack.length > 0) return undefined;
    return this.options.indent ? `${this.out}\n` : this.out;
  }

  private get inObject(): boolean | undefined {
    return this.stack[this.stack.length - 1];
  }

  private token(code: number): boolean {
    if (code === 34) return this.string();
    if (code === 58) return this.colon();
    if (code === 44) return this.comma();
    if (code === 123 || code === 91) return this.open(code === 123);
    if (code === 125 || code === 93) return this.close(code === 125);
    return this.scalar();
  }

  private color(color: string, token: string): string {
    return this.options.color ? `${color}${token}${RESET}` : token;
  }

  private newline(depth: number): string {
    return this.options.indent ? `\n${INDENT.repeat(depth)}` : "";
  }

  /** Skips JSON whitespace, keeping it when the layout is kept (a lone CR could overwrite a line). */
  private space(): void {
    SPACE.lastIndex = this.i;
    const found = SPACE.exec(this.text)![0];
    if (!this.options.indent) this.out += found.replace(/\r(?!\n)/g, "");
    this.i += found.length;
  }

  private string(): boolean {
    const end = stringEnd(this.text, this.i + 1);
    if (end < 0 || (this.want !== "value" && this.want !== "key")) return false;
    const token = escapeForTerminal(this.text.slice(this.i, end));
    this.i = end;
    const key = this.want === "key";
    this.out += this.color(key ? COLOR.key : COLOR.string, token);
    this.want = key ? "colon" : "next";
    return true;
  }

  private colon(): boolean {
    if (this.want !== "colon") return false;
    this.out += this.options.indent ? ": " : ":";
    this.want = "value";
    this.i++;
    return true;
  }

  private comma(): boolean {
    const inObject = this.inObject;
    if (this.want !== "next" || inObject === undefined) return false;
    this.out += `,${this.newline(this.stack.length)}`;
    this.want = inObject ? "key" : "value";
    this.i++;
    return true;
  }

  private open(object: boolean): boolean {
    if (this.want !== "value") return false;
    this.out += this.text[this.i];
    this.i++;
    SPACE.lastIndex = this.i;
    const inside = SPACE.exec(this.text)![0];
    if (this.text.charCodeAt(this.i + inside.length) === (object ? 125 : 93)) {
      // Empty: "{}" and "[]" stay on one line.
      if (!this.options.indent) this.out += inside.replace(/\r(?!\n)/g, "");
      this.out += object ? "}" : "]";
      this.i += inside.length + 1;
      this.want = "next";
    } else {
      this.stack.push(object);
      this.out += this.newline(this.stack.length);
      this.want = object ? "key" : "value";
    }
    return true;
  }

  private close(object: boolean): boolean {
    if (this.inObject !== object || this.want !== "next") return false;
    this.stack.pop();
    this.out += this.newline(this.stack.length) + this.text[this.i];
    this.i++;
    this.want = "next";
    return true;
  }

  /** A number or a literal (true, false, null), copied as written. */
  private scalar(): boolean {
    if (this.want !== "value") return false;
    const { text, i } = this;
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text)?.[0];
    const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
    const token = number ?? literal;
    if (token === undefined) return false;
    this.out += this.color(number ? COLOR.number : literal === "null" ? COLOR.null : COLOR.boolean, token);
    this.i += token.length;
    if (/[\w.+-]/.test(text[this.i] ?? "")) return false; // "01", "1.", "truex"
    this.want = "next";
    return true;
  }
}
