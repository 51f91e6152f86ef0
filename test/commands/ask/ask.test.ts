import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/output/width.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// ask run in-process through run() against the sandbox: the answer's markdown laid out at the
// terminal's width.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_ask`;
const servers = useServers();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const cli = (args: string[], env: Record<string, string> = {}) =>
  run(["--base-url", sandbox.url, ...args], servers.folder(), { env: { TOKENINTEL_API_KEY: KEY, ...env } });
const words = (text: string) => text.split(/\s+/).filter((w) => w && w !== "•" && w !== "│");

describe("ask on a terminal", () => {
  it("at 40 columns the answer breaks between words: every line fits, no word or number is cut", async () => {
    const symbols = sandbox.data
      .list("base", undefined)
      .slice(40, 44)
      .map((t) => `$${t.symbol}`);
    const question = ["how are", ...symbols, "doing today?"].join(" ");
    const args = ["ask", question, "--chain", "base", "--fields", "nlpResponse"];
    const terminal = await cli([...args, "-o", "table"], {
      TOKENINTEL_FORCE_TTY: "1",
      NO_COLOR: "1",
      COLUMNS: "40",
    });
    const piped = await cli([...args, "-o", "table"], { COLUMNS: "40" });
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(piped.code, piped.stderr).toBe(0);
    const lines = terminal.stdout.trimEnd().split("\n");
    // The figures are long: unwrapped, lines run past 40 cells.
    expect(Math.max(...piped.stdout.split("\n").map(displayWidth))).toBeGreaterThan(60);
    for (const line of lines)
      if (words(line).length > 1) expect(displayWidth(line), line).toBeLessThanOrEqual(40);
    // The same words in the same order: only where the lines break changed.
    expect(words(terminal.stdout)).toEqual(words(piped.stdout));
    const numbers = piped.stdout.match(/\$?\d[\d.,]*\d%?/g) ?? [];
    expect(numbers.length).toBeGreaterThan(8);
    for (const n of numbers)
      expect(
        lines.some((l) => l.includes(n)),
        n,
      ).toBe(true);
    // A bullet's later lines hang under its text.
    const bullet = lines.findIndex((l) => l.startsWith("  • "));
    expect(lines[bullet + 1]).toMatch(/^ {4}\S/);
  });
});
