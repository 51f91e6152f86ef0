import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/output/width.js";
import { run } from "../harness.js";
import { useKeyedSandbox } from "../sandbox-runs.js";

// `tokenintel ask` run in-process through run() against the sandbox: the question posted, the answer
// as JSON, in every format, and on a terminal, its markdown laid out at the terminal's width.

const { KEY, servers, dir, sandbox, cliAt } = useKeyedSandbox("ask");

const cli = (args: string[], env: Record<string, string> = {}) => cliAt(sandbox, args, env, servers.folder());
const words = (text: string) => text.split(/\s+/).filter((w) => w && w !== "•" && w !== "│");

describe("ask", () => {
  it("ask posts the question and prints the data object as JSON", async () => {
    const token = sandbox.data.list("base", undefined)[20]!;
    const r = await cli(["ask", `what about $${token.symbol}?`, "--chain", "base", "--json"]);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout) as { nlpResponse: string; tokenDetails: Array<{ token_id: string }> };
    expect(data.nlpResponse).toContain(token.symbol);
    // The sandbox says it is the sandbox, and links nowhere (it linked to a placeholder URL).
    expect(data.nlpResponse).toContain("Data from the tokenintel sandbox (`tokenintel sandbox`)");
    expect(data.nlpResponse).not.toMatch(/\]\(https?:/);
    expect(data.tokenDetails.map((d) => d.token_id)).toEqual([token.id]);
    // Unquoted, the words are one question (as gh joins a search's words), not "too many arguments".
    const words = await cli(["ask", "what", "about", `$${token.symbol}?`, "--chain", "base", "--json"]);
    expect(words.code, words.stderr).toBe(0);
    expect((JSON.parse(words.stdout) as { nlpResponse: string }).nlpResponse).toContain(
      `You asked: *what about $${token.symbol}?*`,
    );
  });

  it("ask renders the answer and a table of token details on a terminal, and reads the question from stdin", async () => {
    const token = sandbox.data.list("base", undefined)[21]!;
    const r = await run(["--base-url", sandbox.url, "ask", "-"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_FORCE_TTY: "1", NO_COLOR: "1" },
      input: `is ${token.symbol} up today?`,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("Sandbox answer");
    expect(r.stdout).toMatch(new RegExp(`TICKER\\s+NAME[\\s\\S]*${token.symbol.replace(/[$]/g, "\\$")}`));
  });
});

describe("ask in every output format", () => {
  it("ask", async () => {
    const token = sandbox.data.list("base", undefined)[30]!;
    const q = ["ask", `price of ${token.symbol}`, "--chain", "base"];
    const ndjson = await cli([...q, "--ndjson"]);
    expect(ndjson.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect((JSON.parse(ndjson.stdout) as { tokenDetails: unknown[] }).tokenDetails).toHaveLength(1);
    const csv = await cli([...q, "-o", "csv", "--fields", "token_ticker,current_usd_price"]);
    expect(csv.stdout).toBe(
      `token_ticker,current_usd_price\n${token.symbol},${(sandbox.data.askDetail(token) as { current_usd_price: string }).current_usd_price}\n`,
    );
    const none = await cli(["ask", "hello there", "-o", "table"], { NO_COLOR: "1" });
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/found no token/);
    expect(none.stderr).toMatch(/No token details/);
  });
});

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
