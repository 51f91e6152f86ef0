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
  const paint = (color: string, token: string) => (options.color ? `${color}${token}${RESET}` : token);
  const newline = (depth: number) => (options.indent ? `\n${INDENT.repeat(depth)}` : "");
  /** true for an object, false for an array, innermost last */
  const stack: boolean[] = [];
  // What may come next: a value, an object key, the colon after a key, or a comma/closing bracket.
  let want = "value" as "value" | "key" | "colon" | "next";
  let out = "";
  let i = 0;
  const n = text.length;

  /** Skips JSON whitespace, keeping it when the layout is kept (a lone CR could overwrite a line). */
  const space = () => {
    SPACE.lastIndex = i;
    const found = SPACE.exec(text)![0];
    if (!options.indent) out += found.replace(/\r(?!\n)/g, "");
    i += found.length;
  };
  const endValue = () => {
    want = "next";
  };

  for (space(); i < n; space()) {
    const c = text.charCodeAt(i);
    const inObject = stack[stack.length - 1];
    if (want === "next" && inObject === undefined) {
      // Another top-level value (NDJSON): one a line when laid out.
      want = "value";
      if (options.indent) out += "\n";
    }
    if (c === 34) {
      const end = stringEnd(text, i + 1);
      if (end < 0 || (want !== "value" && want !== "key")) return undefined;
      const token = escapeForTerminal(text.slice(i, end));
      i = end;
      if (want === "key") {
        out += paint(COLOR.key, token);
        want = "colon";
      } else {
        out += paint(COLOR.string, token);
        endValue();
      }
    } else if (c === 58) {
      if (want !== "colon") return undefined;
      out += options.indent ? ": " : ":";
      want = "value";
      i++;
    } else if (c === 44) {
      if (want !== "next" || inObject === undefined) return undefined;
      out += `,${newline(stack.length)}`;
      want = inObject ? "key" : "value";
      i++;
    } else if (c === 123 || c === 91) {
      if (want !== "value") return undefined;
      const object = c === 123;
      out += text[i];
      i++;
      SPACE.lastIndex = i;
      const inside = SPACE.exec(text)![0];
      if (text.charCodeAt(i + inside.length) === (object ? 125 : 93)) {
        // Empty: "{}" and "[]" stay on one line.
        if (!options.indent) out += inside.replace(/\r(?!\n)/g, "");
        out += object ? "}" : "]";
        i += inside.length + 1;
        endValue();
      } else {
        stack.push(object);
        out += newline(stack.length);
        want = object ? "key" : "value";
      }
    } else if (c === 125 || c === 93) {
      if (inObject !== (c === 125) || want !== "next") return undefined;
      stack.pop();
      out += newline(stack.length) + text[i];
      i++;
      endValue();
    } else {
      if (want !== "value") return undefined;
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(text)?.[0];
      const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
      const token = number ?? literal;
      if (token === undefined) return undefined;
      out += paint(number ? COLOR.number : literal === "null" ? COLOR.null : COLOR.boolean, token);
      i += token.length;
      if (/[\w.+-]/.test(text[i] ?? "")) return undefined; // "01", "1.", "truex"
      endValue();
    }
  }
  if (want !== "next" || stack.length > 0) return undefined;
  return options.indent ? `${out}\n` : out;
}
