import { readFileSync } from "node:fs";
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
  out.on("error", (error: NodeJS.ErrnoException) => {
    // The reader went away (`| head -1`): nothing more to say. Anything else: say it, exit 1.
    if (error.code !== "EPIPE")
      process.stderr.write(`tokenintel: could not write the output: ${error.code ?? error.message}\n`);
    process.exit(error.code === "EPIPE" ? 0 : 1);
  });
  out.write(renderHelp(page, (out.isTTY ? out.columns : undefined) ?? 80));
  return true;
}
