// How an example line of the docs runs: where bash would split it, and which part is tokenintel's.
// The examples test and the docs generator (scripts/reference.ts) read lines the same way: the
// tokenintel command in-process, the commands piped into it or after it through bash.

/** A line split where bash would split it: its commands, and what joins each to the next. */
export interface Pipeline {
  /** Each command's words as bash passes them, and where its text starts in the line. */
  commands: Array<{ words: string[]; at: number }>;
  /** What comes after each command but the last: a pipe or `&&`. */
  joins: Array<"|" | "&&">;
}

/**
 * Splits a line of words, single and double quotes, pipes and `&&`, and a trailing comment, as bash
 * would; undefined for anything else bash would expand or redirect ($, backticks, globs, ~, @file
 * read from the current folder, redirections, subshells), which only bash itself runs as written.
 */
export function splitPipeline(line: string): Pipeline | undefined {
  const commands: Pipeline["commands"] = [];
  const joins: Pipeline["joins"] = [];
  let words: string[] = [];
  let word: string | undefined;
  let from = 0;
  const endCommand = (to: number) => {
    if (word !== undefined) words.push(word);
    word = undefined;
    if (line.slice(from, to).trim() !== "") commands.push({ words, at: from });
    words = [];
  };
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      if (close < 0) return undefined;
      const quoted = line.slice(i + 1, close);
      if (c === '"' && /[$`\\]/.test(quoted)) return undefined;
      word = (word ?? "") + quoted;
      i = close;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) break;
    else if (c === "|" && line[i + 1] !== "|") {
      endCommand(i);
      joins.push("|");
      from = i + 1;
    } else if (c === "&" && line[i + 1] === "&") {
      endCommand(i);
      joins.push("&&");
      from = i + 2;
      i++;
    } else if (/[$`\\<>()&;*?|{}]/.test(c) || ((c === "~" || c === "@") && word === undefined))
      return undefined;
    else word = (word ?? "") + c;
  }
  endCommand(i);
  return commands.length === joins.length + 1 && commands.every((c) => c.words.length > 0)
    ? { commands, joins }
    : undefined;
}

/** The words after `tokenintel` (or `npx tokenintel`), for a command that runs it. */
export const tokenintelWords = (words: string[]) =>
  words[0] === "tokenintel"
    ? words.slice(1)
    : words[0] === "npx" && words[1] === "tokenintel"
      ? words.slice(2)
      : undefined;

/**
 * How a line runs without bash in the middle: one tokenintel command, fed by at most one command
 * through a pipe, followed by the rest of the line (through a pipe, or after `&&`), the tokenintel
 * command in-process and the others through bash. Undefined when only bash can run it as written.
 */
export function inProcessPlan(line: string) {
  const pipeline = splitPipeline(line);
  if (!pipeline) return undefined;
  const at = pipeline.commands.findIndex((c) => tokenintelWords(c.words) !== undefined);
  const words = at < 0 ? undefined : tokenintelWords(pipeline.commands[at]!.words);
  if (!words || at > 1 || (at === 1 && pipeline.joins[0] !== "|")) return undefined;
  const rest = pipeline.commands.slice(at + 1);
  if (rest.some((c) => tokenintelWords(c.words) !== undefined)) return undefined;
  return {
    words,
    before: at === 1 ? line.slice(0, pipeline.commands[1]!.at - 1).trim() : undefined,
    after: rest.length ? { join: pipeline.joins[at]!, text: line.slice(rest[0]!.at).trim() } : undefined,
  };
}
