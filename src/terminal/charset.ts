// A terminal whose locale is not UTF-8 (LANG=C, POSIX, ISO-8859-1) cannot show the symbols tables,
// charts and messages draw with: there each is written as one ASCII character, so that a layout
// measured with the symbol still lines up, and a tiny price writes its zeros in full (0.0000001234)
// instead of counting them in subscript digits, which no ASCII character stands for.

/** Whether the locale says the terminal is not UTF-8: the first of LC_ALL, LC_CTYPE, LANG set decides (none: UTF-8). */
export function asciiLocale(env: NodeJS.ProcessEnv): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return Boolean(locale) && !/utf-?8/i.test(locale!);
}

/** One ASCII character for each symbol tokenintel draws with (asciichart's included). */
const ASCII: Record<string, string> = {
  "✓": "y",
  "✗": "n",
  "…": "~",
  "→": ">",
  "·": "-",
  "•": "*",
  "━": "=",
  "─": "-",
  "│": "|",
  "┤": "|",
  "├": "|",
  "┼": "+",
  "┬": "+",
  "┴": "+",
  "┌": "+",
  "┐": "+",
  "└": "+",
  "┘": "+",
  "╭": "+",
  "╮": "+",
  "╰": "+",
  "╯": "+",
  "╶": "-",
  "╴": "-",
};

const SYMBOL = new RegExp(`[${Object.keys(ASCII).join("")}]`, "g");

/** The text with each drawing symbol as its ASCII stand-in. */
export function toAscii(text: string): string {
  return text.replace(SYMBOL, (symbol) => ASCII[symbol]!);
}

/** Whether numbers are written for an ASCII terminal (set for the run by its IO). */
let asciiNumbers = false;

export function writeNumbersForAscii(on: boolean): void {
  asciiNumbers = on;
}

export function numbersForAscii(): boolean {
  return asciiNumbers;
}
