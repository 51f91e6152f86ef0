import type { ChalkInstance } from "chalk";
import { sanitizeBlock } from "../terminal/sanitize.js";

// The ask answer's markdown, for a terminal: headings, bold, italics, code, lists, quotes and
// links, with the markup removed. Text from the server is sanitized first, so nothing in it can
// drive the terminal; only the styles added here reach it.

function inline(text: string, chalk: ChalkInstance): string {
  return text
    .replace(/`([^`]+)`/g, (_, code: string) => chalk.cyan(code))
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) =>
      label === url ? chalk.underline(url) : `${chalk.underline(label)} ${chalk.dim(`(${url})`)}`,
    )
    .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a: string | undefined, b: string | undefined) =>
      chalk.bold(a ?? b ?? ""),
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

export function renderMarkdown(markdown: string, chalk: ChalkInstance): string {
  const lines = sanitizeBlock(markdown).split("\n");
  const out: string[] = [];
  let fenced = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      out.push(`    ${chalk.cyan(line)}`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const text = inline(heading[2]!, chalk);
      out.push(heading[1]!.length <= 2 ? chalk.bold.underline(text) : chalk.bold(text));
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      out.push(`${bullet[1]}  • ${inline(bullet[2]!, chalk)}`);
      continue;
    }
    const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(line);
    if (numbered) {
      out.push(`${numbered[1]}  ${numbered[2]}. ${inline(numbered[3]!, chalk)}`);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      out.push(chalk.dim(`  │ ${inline(quote[1]!, chalk)}`));
      continue;
    }
    if (/^\s*(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/.test(line)) {
      out.push(chalk.dim("─".repeat(40)));
      continue;
    }
    out.push(inline(line, chalk));
  }
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
