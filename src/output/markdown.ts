import type { ChalkInstance } from "chalk";
import { sanitizeBlock } from "../terminal/sanitize.js";
import { displayWidth } from "./width.js";

// The ask answer's markdown, for a terminal: headings, bold, italics, code, lists, quotes and
// links, with the markup removed. Text from the server is sanitized first, so nothing in it can
// drive the terminal; only the styles added here reach it. Given a width, each line is wrapped at
// the spaces between words, under its bullet or quote mark: a word (a number, a URL) is never cut,
// one wider than the line stands alone on it.

function inline(text: string, chalk: ChalkInstance): string {
  return text
    .replace(/`([^`]+)`/g, (_, code: string) => chalk.cyan(code))
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) =>
      label === url ? chalk.underline(url) : `${chalk.underline(label)} ${chalk.dim(`(${url})`)}`,
    )
    .replace(
      /\*\*([^*]+)\*\*|__([^_]+)__/g,
      (_, stars: string | undefined, underscores: string | undefined) =>
        chalk.bold(stars ?? underscores ?? ""),
    )
    .replace(
      /(^|[^*\w])\*([^*\s][^*]*?)\*(?!\w)/g,
      (_, pre: string, body: string) => `${pre}${chalk.italic(body)}`,
    )
    .replace(
      /(^|\W)_([^_\s][^_]*?)_(?!\w)/g,
      (_, pre: string, body: string) => `${pre}${chalk.italic(body)}`,
    );
}

/** One line of the answer as shown: its mark (a bullet, a quote bar), the text, and a style over both. */
interface Block {
  /** Before the first line of the text ("  • "); the lines after it get as many spaces, or `hang`. */
  mark: string;
  hang?: string;
  text: string;
  style?: (line: string) => string;
  /** Laid out as written (code, a rule). */
  fixed?: boolean;
}

const HR = /^\s*(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/;

/**
 * The most of a list item's own indentation kept (four levels of nesting): the server writes it,
 * and every wrapped line repeats it, so 2,000 spaces before a `-` would leave one cell a line.
 */
const MAX_INDENT = 8;
const indent = (text: string) => text.replace(/\t/g, "  ").slice(0, MAX_INDENT);

/** What one line of markdown is, styled. */
function blockOf(line: string, chalk: ChalkInstance, width: number | undefined): Block {
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) {
    const style = heading[1]!.length <= 2 ? chalk.bold.underline : chalk.bold;
    return { mark: "", text: inline(heading[2]!, chalk), style: (text) => style(text) };
  }
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return { mark: `${indent(bullet[1]!)}  • `, text: inline(bullet[2]!, chalk) };
  const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(line);
  if (numbered)
    return {
      mark: `${indent(numbered[1]!)}  ${numbered[2]!.slice(0, 9)}. `,
      text: inline(numbered[3]!, chalk),
    };
  const quote = /^>\s?(.*)$/.exec(line);
  if (quote)
    return { mark: "  │ ", hang: "  │ ", text: inline(quote[1]!, chalk), style: (text) => chalk.dim(text) };
  if (HR.test(line)) return { mark: "", text: chalk.dim("─".repeat(Math.min(40, width ?? 40))), fixed: true };
  return { mark: "", text: inline(line, chalk) };
}

export function renderMarkdown(markdown: string, chalk: ChalkInstance, width?: number): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of sanitizeBlock(markdown).split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    const block = fenced
      ? { mark: "    ", text: chalk.cyan(line), fixed: true }
      : blockOf(line, chalk, width);
    // One at a time: a paragraph of millions of words is millions of lines, too many arguments for push().
    for (const laid of layOut(block, width)) out.push(laid);
  }
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

/** A block's lines at `width` (unwrapped without one), its mark on the first, its hang on the rest. */
function layOut(block: Block, width: number | undefined): string[] {
  const style = block.style ?? ((text: string) => text);
  if (width === undefined || block.fixed) return [style(`${block.mark}${block.text}`)];
  const hang = block.hang ?? " ".repeat(displayWidth(block.mark));
  const room = Math.max(1, width - displayWidth(block.mark));
  return wrapStyled(block.text, room).map((text, i) => style(`${i === 0 ? block.mark : hang}${text}`));
}

/** The code that ends each style an opening SGR code starts (chalk's level 1 codes). */
function closerOf(code: number): number | undefined {
  if (code === 1 || code === 2) return 22;
  if (code === 3 || code === 4 || code === 7 || code === 9) return code + 20;
  if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) return 39;
  if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) return 49;
  return undefined;
}

/** The styles still open at the end of `text`: their opening codes, in order. */
function openAfter(text: string): string[] {
  let active: string[] = [];
  for (const [seq, digits] of text.matchAll(/\x1b\[(\d*)m/g)) {
    const code = Number(digits || "0");
    if (code === 0) active = [];
    else if (closerOf(code) !== undefined) active.push(seq);
    else active = active.filter((opener) => closerOf(Number(opener.slice(2, -1))) !== code);
  }
  return active;
}

/**
 * Styled text broken at its spaces into lines of at most `width` cells: a word is never cut (a
 * number stays whole; a word wider than the line stands alone). A style open at a break is closed
 * at the line's end and opened again on the next, so a mark or an indent never takes it.
 */
export function wrapStyled(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  let used = 0;
  let pending = "";
  for (const [i, piece] of text.split(/( +)/).entries()) {
    if (i % 2 === 1) {
      pending = piece;
      continue;
    }
    const cells = displayWidth(piece);
    if (used > 0 && used + displayWidth(pending) + cells > width) {
      const open = openAfter(line);
      lines.push(open.length ? `${line}\x1b[0m` : line);
      line = open.join("");
      used = 0;
      pending = "";
    }
    line += pending + piece;
    used += displayWidth(pending) + cells;
    pending = "";
  }
  lines.push(line);
  return lines;
}
