import { describe, expect, it } from "vitest";
import { helpPages } from "../../scripts/help-pages.js";
import { renderHelp } from "../../src/help/render.js";

// Help fits a narrow terminal, and a command's page shows its own options and
// subcommands first and names the global options in one paragraph (as gh does inherited flags).

describe("help pages", async () => {
  const pages = await helpPages();

  it("put a group's subcommands before the global options, which are named, not described", () => {
    for (const group of ["auth", "config", "cache"]) {
      const text = renderHelp(pages[group]!, 80);
      const commands = text.indexOf("Commands:");
      const globals = text.indexOf("Global options (described in 'tokenintel --help'):");
      expect(commands, group).toBeGreaterThan(0);
      expect(globals, group).toBeGreaterThan(commands);
      expect(text).not.toContain("Global Options:");
      expect(text).not.toContain("log each request (key redacted)");
    }
  });

  it("the program's own page still describes every global option", () => {
    const text = renderHelp(pages[""]!, 80);
    expect(text).toContain("log each request (key redacted)");
    expect(text).not.toContain("Global options (described in");
  });

  for (const width of [40, 52, 60, 74]) {
    it(`at ${width} columns no line is wider than the terminal but a word that cannot break`, () => {
      for (const [path, page] of Object.entries(pages)) {
        // The options, commands and global options (the notes after them are held by help-render's test).
        const text = renderHelp(page, width);
        const end = text.search(/\nExamples:|\n\n[A-Z][^\n]*:\n {2}[^-\s]/);
        const lines = (end > 0 ? text.slice(0, end) : text).split("\n");
        // Left as written: the usage line, JSON (copied as typed), a word alone.
        const asWritten = (l: string) => l.startsWith("Usage:") || /["{}]/.test(l) || !l.trim().includes(" ");
        const wide = lines.filter((l) => l.length > width && !asWritten(l));
        expect({ path, wide }).toEqual({ path, wide: [] });
      }
    });
  }
});
