import { readFileSync } from "node:fs";
import { writeOutSync } from "../files/stdout.js";
import { type HelpPages, type HelpPart, renderHelp } from "../help/render.js";

// A help request, answered by the shim (entry/shim.ts) without the program or commander.

/** The page for a command path ("" the program's, "config set"); undefined for a path without one. */
export function helpPage(path: string | undefined, pages: HelpPages): HelpPart[] | undefined {
  return path !== undefined && Object.hasOwn(pages, path) ? pages[path] : undefined;
}

/**
 * Prints the help page of `path` (the command line's, entry/command-line.ts) from the pages file
 * at `width()` columns and returns true; false when there is no such page (the program then reads
 * the line). A reader that went away (`| head -1`): exit 0; anything else (a full disk): one line,
 * exit 1.
 */
export function printHelp(path: string, pagesFile: string, width: () => number): boolean {
  const pages = JSON.parse(readFileSync(pagesFile, "utf8")) as HelpPages;
  const page = helpPage(path, pages);
  if (!page) return false;
  writeOutSync(renderHelp(page, width()));
  return true;
}
