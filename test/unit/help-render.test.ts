import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { helpPages } from "../../scripts/help-pages.js";
import { readCommandLine } from "../../src/entry/command-line.js";
import { helpPage } from "../../src/entry/help.js";
import { renderHelp } from "../../src/help/render.js";
import { fullProgram } from "../../src/program.js";

// The pages the shim prints for `--help` (built once, wrapped at the run's width) must be what
// commander prints, byte for byte, for every command at every width: narrow (no wrapping below a
// 40-column description), odd, common and wide.

const WIDTHS = [20, 45, 59, 60, 61, 80, 99, 100, 133, 160, 250];

/** What commander prints for a command's help at a width. */
function commanderHelp(cmd: Command, width: number): string {
  let text = "";
  cmd.configureOutput({
    writeOut: (s) => (text += s),
    getOutHelpWidth: () => width,
    getOutHasColors: () => false,
  });
  cmd.outputHelp();
  return text;
}

function commandsOf(cmd: Command, path: string[] = []): [string, Command][] {
  return [
    [path.join(" "), cmd],
    ...cmd.commands.filter((c) => c.name() !== "help").flatMap((c) => commandsOf(c, [...path, c.name()])),
  ];
}

describe("pre-rendered help", async () => {
  const pages = await helpPages();
  const commands = commandsOf(await fullProgram());

  it("has a page for every command and subcommand", () => {
    expect(Object.keys(pages).sort()).toEqual(commands.map(([path]) => path).sort());
    expect(commands.length).toBeGreaterThan(20);
  });

  for (const [path, cmd] of commands) {
    it(`'${path || "tokenintel"}' reads as commander prints it at every width`, () => {
      for (const width of WIDTHS) {
        expect({ width, text: renderHelp(pages[path]!, width) }).toEqual({
          width,
          text: commanderHelp(cmd, width),
        });
      }
    });
  }
});

describe("notes after the examples", async () => {
  const commands = commandsOf(await fullProgram());
  const handLaid = (line: string) => /^\s/.test(line) || /\S {2,}\S/.test(line);

  it("are wrapped at the help's width; indented lines and tables are kept as written", () => {
    for (const width of [60, 80, 120]) {
      for (const [path, cmd] of commands) {
        const text = commanderHelp(cmd, width);
        const notes = text.split(/\n\n/).slice(1).join("\n\n").split("\n");
        for (const line of notes.filter((l) => !handLaid(l) && !l.startsWith("Examples:")))
          expect({ path, width, line }).toEqual({ path, width, line: line.slice(0, width) });
      }
    }
    // A paragraph written on several lines in the source runs together before it is wrapped.
    const directory = commands.find(([p]) => p === "directory")![1];
    expect(commanderHelp(directory, 200)).toContain(
      "Token index (--sync): 'tokenintel directory --sync' stores both chains ('-c base' one), one file a chain in the cache folder",
    );
    const mcp = commands.find(([p]) => p === "mcp")![1];
    expect(commanderHelp(mcp, 60)).toContain(
      '  {"mcpServers": {"tokenintel": {"command": "/usr/local/bin/node",\n',
    );
  });
});

describe("each command's flags describe that command", async () => {
  const commands = new Map(commandsOf(await fullProgram()));
  const options = (path: string) => {
    const text = commanderHelp(commands.get(path)!, 250);
    return text.slice(text.indexOf("Options:"), text.indexOf("Global Options:"));
  };

  it("--strict names the lists the command takes, and only where it takes lists", () => {
    expect(options("directory")).toMatch(/--strict +exit 1 when an item of --addresses matches nothing/);
    expect(options("market")).toContain("exit 1 when an item of --tickers/--addresses/--ids matches nothing");
    expect(options("trending")).not.toContain("--strict");
  });

  it("--sort mentions rug_status only where records carry it; check says each list's help once", () => {
    for (const path of ["market", "directory", "ta", "trending"])
      expect(options(path)).not.toContain("rug_status");
    expect(options("agents")).toContain("rug_status by severity");
    expect(options("check").match(/@file/g)).toHaveLength(3);
  });
});

describe("which command lines a page answers", () => {
  const pages = { "": ["root"], market: ["market"], config: ["config"], "config set": ["set"] };
  const cases: [string[], string[] | undefined][] = [
    [[], ["root"]],
    [["--help"], ["root"]],
    [["-h"], ["root"]],
    [["help"], ["root"]],
    [["market", "--help"], ["market"]],
    [["market", "-h"], ["market"]],
    [["help", "market"], ["market"]],
    [["config", "set", "--help"], ["set"]],
    // Left to the program: options, unknown words, anything after `help <command>`.
    [["help", "config", "set"], undefined],
    [["market", "-c", "base", "--help"], undefined],
    [["--color", "never", "market", "--help"], undefined],
    [["nope", "--help"], undefined],
    [["help", "nope"], undefined],
    [["market"], undefined],
    [["--help", "market"], undefined],
    [["__proto__", "--help"], undefined],
  ];
  for (const [args, page] of cases) {
    it(`${JSON.stringify(args)} → ${page ? page[0] : "the program"}`, () => {
      expect(helpPage(readCommandLine(args).helpPath, pages)).toEqual(page);
    });
  }
});
