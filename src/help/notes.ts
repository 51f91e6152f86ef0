// A command's notes (the text after its examples in --help and the man page): paragraphs written
// on several lines in the source run together and are wrapped at the reader's width; lines laid
// out by hand (indented commands and JSON, tables in columns) are kept as written.

/** A line laid out by hand: blank, indented (a command, a JSON snippet) or in columns (a table). */
export const preformatted = (line: string) => line === "" || /^\s/.test(line) || /\S {2,}\S/.test(line);

/** Each paragraph wrapped; a line laid out by hand is kept as written. */
export function wrapNotes(notes: string, wrap: (line: string) => string): string {
  return notes
    .split("\n")
    .map((line) => (preformatted(line) ? line : wrap(line)))
    .join("\n");
}

/**
 * A help text's paragraphs as one line each, for wrapping at the help's width: lines run together
 * until a blank line, an indented line (kept as it is: a command or a JSON snippet) or a list item.
 */
export function reflow(text: string): string {
  const out: string[] = [];
  let joinable = false;
  for (const line of text.split("\n")) {
    const starts = preformatted(line) || /^(- |\* |\d+\. )/.test(line);
    if (joinable && !starts) out[out.length - 1] += ` ${line}`;
    else out.push(line);
    joinable = !preformatted(line);
  }
  return out.join("\n");
}
