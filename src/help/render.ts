// Help pages without the program: the build renders every command's help once with commander
// (scripts/help-pages.ts), leaving out only what depends on the terminal's width, and the shim
// wraps it here at the run's width. `tokenintel market --help` then costs a file read, not the
// command modules, commander and the flag tables. A test holds the result to commander's own.

/** A piece of a help page: fixed text, an option or command line, or a paragraph to wrap. */
export type HelpPart =
  | string
  | { item: [term: string, termWidth: number, description: string] }
  | { wrap: string };

/** The pages, by command path: "" is the program, "config set" a subcommand. */
export type HelpPages = Record<string, HelpPart[]>;

// Commander's layout: two spaces before a term, two between the term and its description. On a
// terminal too narrow for a description column of 40, the description goes under its term; the
// program's commander help uses the same two functions (program.ts), so both print one page.
const INDENT = "  ";
const SPACER = "  ";
const MIN_COLUMN = 40;
/** Under a term, a description is indented this much. */
const UNDER = "      ";
/** Narrower than this, nothing is wrapped (the terminal does it). */
const MIN_WIDTH_TO_WRAP = 20;

/** A help page at a terminal width. */
export function renderHelp(parts: readonly HelpPart[], width: number): string {
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") text += part;
    else if ("item" in part) text += formatItem(...part.item, width);
    else text += wrap(part.wrap, width);
  }
  return text;
}

/** An option or command line: the term, then its description beside it, or under it when narrow. */
export function formatItem(term: string, termWidth: number, description: string, width: number): string {
  if (!description) return INDENT + term;
  const column = width - termWidth - SPACER.length - INDENT.length;
  const preformatted = /\n[^\S\r\n]/.test(description);
  if (column < MIN_COLUMN && !preformatted) {
    const under = wrap(description, width - UNDER.length).replace(/\n/g, `\n${UNDER}`);
    return `${INDENT}${term}\n${UNDER}${under}`;
  }
  const body = preformatted
    ? description
    : wrap(description, column).replace(/\n/g, `\n${" ".repeat(termWidth + SPACER.length)}`);
  return INDENT + term.padEnd(termWidth) + SPACER + body.replace(/\n/g, `\n${INDENT}`);
}

/** Breaks each line at whitespace so that none is wider than `width` (a longer word stays whole). */
export function wrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const out: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const words = line.match(/\s*\S+/g);
    if (!words) {
      out.push("");
      continue;
    }
    let current = words[0]!;
    for (const word of words.slice(1)) {
      if (current.length + word.length <= width) {
        current += word;
      } else {
        out.push(current);
        current = word.trimStart();
      }
    }
    out.push(current);
  }
  return out.join("\n");
}
