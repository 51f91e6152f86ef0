import { stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../commands/harness.js";
import { tempDir } from "./helpers.js";
import { inTerminal } from "./terminal-session.js";

// Tables whose cells are sentences, in a real terminal of a given width: cli-table3 wraps each cell
// within its column, so every reason, note and name is there in full and no line passes the edge.

const dir = tempDir();
afterAll(() => dir.remove());

/** What the command drew in a terminal `columns` wide, line by line, escapes removed. */
async function drawn(args: string[], columns: number, env: Record<string, string> = {}): Promise<string[]> {
  // Tall enough that no table here is handed to a pager.
  const session = inTerminal(args, dir.path, { COLUMNS: String(columns), LINES: "500", ...env });
  expect(await session.exited).toBe(0);
  return stripVTControlCharacters(session.screen())
    .split(/\r?\n/)
    .map((line) => line.replace(/\r/g, ""))
    .filter((line) => line !== "");
}

/** Every line within the width (the terminal's cells: the text here is ASCII and "…"). */
function expectFits(lines: string[], columns: number): void {
  const over = lines.filter((line) => [...line].length > columns);
  expect(over, `lines wider than ${columns} columns`).toEqual([]);
}

/** The text with every line break and space taken out: a wrapped sentence reads the same. */
const squash = (text: string) => text.replace(/\s+/g, "");

interface Reason {
  rule: string;
  field: string;
  value: string;
  unit: string | null;
  level: string;
  threshold: string;
}

async function reasonsOf(tickers: string): Promise<string[]> {
  const res = await run(["--sandbox", "check", "-c", "base", "--tickers", tickers, "--json"], dir.path);
  expect(res.code).toBe(0);
  const rows = JSON.parse(res.stdout) as Array<{ reasons: Reason[] }>;
  return rows.flatMap((row) =>
    row.reasons.map((r) => `${r.rule}: ${r.field}=${r.value}${r.unit ?? ""} (${r.level} at ${r.threshold})`),
  );
}

describe("tables of sentences wrap to the terminal", () => {
  for (const columns of [80, 40]) {
    it(`check's reasons are whole at ${columns} columns, no line past the edge`, async () => {
      const tickers = "DEGEN,VIRTUAL,BRETT";
      const [reasons, lines] = await Promise.all([
        reasonsOf(tickers),
        drawn(["--sandbox", "check", "-c", "base", "--tickers", tickers], columns),
      ]);
      expect(reasons.length).toBeGreaterThan(3);
      expect(lines[0]).toMatch(/^SYMBOL\s+ADDRESS\s+LEVEL\s+REASONS$/);
      expectFits(lines, columns);
      const table = squash(lines.join("\n"));
      for (const reason of reasons) expect(table).toContain(squash(reason));
      // Laid out in lines, not one line a token run past the edge and cut.
      expect(lines.length).toBeGreaterThan(4);
    });
  }

  it("ask's token names wrap in their column at 40 columns", async () => {
    const question = "how are VIRTUAL and AERO doing?";
    const json = await run(["--sandbox", "ask", question, "--json"], dir.path);
    expect(json.code).toBe(0);
    const names = (JSON.parse(json.stdout).tokenDetails as Array<{ token_name: string }>).map(
      (d) => d.token_name,
    );
    expect(names).toContain("Aerodrome Finance");
    const lines = await drawn(["--sandbox", "ask", question], 40);
    // The table (the answer's text above it, the note on stderr below it, are prose).
    const top = lines.findIndex((l) => l.startsWith("TICKER"));
    const table = lines.slice(
      top,
      lines.findIndex((l, i) => i > top && l.startsWith("(")),
    );
    expect(table[0]).toMatch(/^TICKER\s+NAME/);
    expectFits(table, 40);
    // The NAME column, line by line: a name wraps onto the lines below its row.
    const [start, end] = [table[0]!.indexOf("NAME"), table[0]!.indexOf("CHAIN")];
    expect(end).toBeGreaterThan(start);
    const column = table.slice(1).map((l) => l.slice(start, end).trim());
    for (const name of names) expect(squash(column.join(" "))).toContain(squash(name));
    expect(column.join(" ")).not.toContain("…");
  });

  it("config list's notes wrap under their column at 80 columns", async () => {
    const lines = await drawn(["config", "list"], 80, { TOKENINTEL_OUTPUT: "xml" });
    expectFits(lines, 80);
    const note = 'INVALID: unknown output format "xml" (expected table, json, ndjson, csv)';
    expect(squash(lines.join("\n"))).toContain(squash(note));
    // The note's continuation starts under the note, not at the start of the line.
    const at = lines.findIndex((l) => l.startsWith("output "));
    const column = lines[at]!.indexOf("(env");
    expect(lines[at + 1]!.slice(0, column).trim()).toBe("");
    expect(lines[at + 1]!.slice(column)).toMatch(/^\S/);
  });

  it("auth status wraps its source under itself at 40 columns", async () => {
    const lines = await drawn(["--sandbox", "auth", "status"], 40);
    expectFits(lines, 40);
    expect(lines[0]).toMatch(/^API key: /);
    expect(lines[1]).toMatch(/^Source: {2}\S/);
    expect(lines[2]).toMatch(/^ {9}\S/);
    expect(squash(lines.slice(1, 3).join(" "))).toBe(squash("Source: the sandbox's demo key (--sandbox)"));
    expect(lines.at(-1)).toMatch(/^Status: {2}accepted by/);
  });
});
