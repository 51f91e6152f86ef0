import { readFileSync } from "node:fs";
import { isatty } from "node:tty";
import { writeOutSync } from "../files/stdout.js";
import { type HelpPages, type HelpPart, renderHelp } from "../help/render.js";

// dist/help.cjs: what the shim loads for a help request, alone (no program, no commander).

/** The page for a command path ("" the program's, "config set"); undefined for a path without one. */
export function helpPage(path: string | undefined, pages: HelpPages): HelpPart[] | undefined {
  return path !== undefined && Object.hasOwn(pages, path) ? pages[path] : undefined;
}

/**
 * Prints the help page of `path` (the command line's, entry/command-line.ts) from the pages file
 * and returns true; false when there is no such page (the program then reads the line). The width
 * is commander's: the terminal's when stdout is one, else 80.
 */
export function printHelp(path: string, pagesFile: string): boolean {
  const pages = JSON.parse(readFileSync(pagesFile, "utf8")) as HelpPages;
  const page = helpPage(path, pages);
  if (!page) return false;
  // process.stdout is made only for a terminal's width. A reader that went away (`| head -1`):
  // exit 0; anything else (a full disk): one line, exit 1.
  const columns = isatty(1) ? process.stdout.columns : undefined;
  writeOutSync(renderHelp(page, columns ?? 80));
  return true;
}
