import { readFileSync } from "node:fs";
import { endOnOutputError } from "../files/stdout.js";
import { type HelpPages, helpPageFor, renderHelp } from "./render.js";

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
  const out = process.stdout;
  // The reader went away (`| head -1`): exit 0. Anything else (a full disk): one line, exit 1.
  endOnOutputError(out);
  out.write(renderHelp(page, (out.isTTY ? out.columns : undefined) ?? 80));
  return true;
}
