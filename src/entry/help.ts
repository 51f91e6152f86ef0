import { readFileSync } from "node:fs";
import { isatty } from "node:tty";
import { writeOutSync } from "../files/stdout.js";
import { type HelpPages, helpPageFor, renderHelp } from "../help/render.js";

// dist/help.cjs: what the shim loads for a help request, alone (no program, no commander).

/**
 * Prints the help page `args` ask for from the pages file and returns true; false when the line
 * asks for more than a page (the program then reads it). The width is commander's: the terminal's
 * when stdout is one, else 80.
 */
export function printHelp(args: readonly string[], pagesFile: string): boolean {
  const pages = JSON.parse(readFileSync(pagesFile, "utf8")) as HelpPages;
  const page = helpPageFor(args, pages);
  if (!page) return false;
  // process.stdout is made only for a terminal's width. A reader that went away (`| head -1`):
  // exit 0; anything else (a full disk): one line, exit 1.
  const columns = isatty(1) ? process.stdout.columns : undefined;
  writeOutSync(renderHelp(page, columns ?? 80));
  return true;
}
