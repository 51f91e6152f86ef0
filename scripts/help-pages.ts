import type { Command, Help } from "commander";
import type { HelpPages, HelpPart } from "../src/help/render.js";
import { fullProgram } from "../src/program.js";

// dist/help.json, written by the build: every command's help as commander prints it, with the
// parts that depend on the terminal's width (option and command lines, the description) kept as
// their pieces for src/help/render.ts to wrap at run time.

const MARK = "\u0000";

/** A command's help with each width-dependent piece replaced by a marker and kept aside. */
function record(cmd: Command): HelpPart[] {
  const pieces: Exclude<HelpPart, string>[] = [];
  const mark = (part: Exclude<HelpPart, string>) => `${MARK}${pieces.push(part) - 1}${MARK}`;
  const own = cmd.configureHelp();
  cmd.configureHelp({
    ...own,
    formatItem: (term: string, termWidth: number, description: string) =>
      mark({ item: [term, termWidth, description] }),
    boxWrap: (text: string) => mark({ wrap: text }),
  } as Partial<Help>);
  let text = "";
  cmd.configureOutput({
    writeOut: (s) => {
      text += s;
    },
    getOutHelpWidth: () => 80,
    getOutHasColors: () => false,
  });
  cmd.outputHelp();
  cmd.configureHelp(own);
  return text
    .split(new RegExp(`${MARK}(\\d+)${MARK}`))
    .map((part, i) => (i % 2 ? pieces[Number(part)]! : part))
    .filter((part) => part !== "");
}

function walk(cmd: Command, path: string[], pages: HelpPages): void {
  pages[path.join(" ")] = record(cmd);
  for (const sub of cmd.commands) {
    if (sub.name() === "help") continue;
    walk(sub, [...path, sub.name()], pages);
  }
}

export async function helpPages(): Promise<HelpPages> {
  const pages: HelpPages = {};
  walk(await fullProgram(), [], pages);
  return pages;
}
