import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { manPage, roff } from "../../scripts/man-page.js";
import { ExitCode } from "../../src/errors.js";
import { COMMANDS, fullProgram, HIDDEN_COMMANDS } from "../../src/program.js";

// The man page is generated from the program: every command, subcommand and flag, with examples.

const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const built = join(root, "dist", "tokenintel.1");

/** Every command below the program, with its path of names. */
/** Every command a person can call (hidden ones, such as shell completion's __complete, are not). */
function walk(cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> {
  return cmd.commands
    .filter((c) => !HIDDEN_COMMANDS.has(c.name()))
    .flatMap((c) => [{ path: [...path, c.name()], cmd: c }, ...walk(c, [...path, c.name()])]);
}

/** The text of one .SS section (up to the next section). */
function section(page: string, path: string[]): string | undefined {
  const head = `.SS "${roff(`tokenintel ${path.join(" ")}`)}"\n`;
  const at = page.indexOf(head);
  if (at < 0) return undefined;
  const end = page.slice(at + head.length).search(/^\.S[SH] /m);
  return page.slice(at, end < 0 ? undefined : at + head.length + end);
}

describe("the man page", async () => {
  const page = await manPage(pkg.version);
  const program = await fullProgram();

  it("has a section for every command and subcommand, with each of its flags and examples", async () => {
    const commands = walk(program);
    expect(commands.map((c) => c.path.join(" "))).toEqual(
      expect.arrayContaining(["market", "auth login", "config set", "version", "sandbox"]),
    );
    const missing: string[] = [];
    for (const { path, cmd } of commands) {
      const text = section(page, path);
      if (!text) {
        missing.push(path.join(" "));
        continue;
      }
      for (const option of cmd.options) {
        if (!text.includes(roff(option.long ?? option.flags)))
          missing.push(`${path.join(" ")} ${option.long}`);
      }
      let module = (await COMMANDS[path[0]!]!()).default;
      for (const name of path.slice(1)) module = module.subcommands!.find((s) => s.name === name)!;
      for (const example of module.examples ?? []) {
        if (!text.includes(roff(`$ ${example}`))) missing.push(`${path.join(" ")}: ${example}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("has the global flags and every exit code", () => {
    const globals = page.slice(page.indexOf(".SH GLOBAL OPTIONS"), page.indexOf(".SH COMMANDS"));
    for (const option of program.options) expect(globals).toContain(roff(option.long!));
    const exits = page.slice(page.indexOf(".SH EXIT STATUS"), page.indexOf(".SH ENVIRONMENT"));
    for (const code of Object.values(ExitCode)) expect(exits).toContain(`.TP\n\\fB${code}\\fR\n`);
  });

  it("is well-formed roff: known macros only, every hyphen and backslash escaped", () => {
    const lines = page.trimEnd().split("\n");
    expect(lines[1]).toMatch(/^\.TH TOKENINTEL 1 "" "tokenintel [\d.]+" "User Commands"$/);
    const sections = lines.filter((l) => l.startsWith(".SH ")).map((l) => l.slice(4));
    expect(sections).toEqual([
      "NAME",
      "SYNOPSIS",
      "DESCRIPTION",
      "GLOBAL OPTIONS",
      "COMMANDS",
      "EXIT STATUS",
      "ENVIRONMENT",
      "FILES",
      "SEE ALSO",
    ]);
    const bad: string[] = [];
    for (const line of lines.slice(1)) {
      if (/^[.']/.test(line) && !/^\.(TH|SH|SS|TP|PP|RS|RE|nf|fi)( |$)/.test(line)) bad.push(line);
      // After removing the escapes roff knows, no backslash or bare hyphen may be left.
      const rest = line.replace(/\\(f[BIR]|-|e|&)/g, "").replace(/^\.\w+ .*$/, "");
      if (/[\\-]/.test(rest)) bad.push(line);
    }
    expect(bad).toEqual([]);
  });

  it("keeps tables in notes one row a line (check's rules, config's settings): no-fill blocks", () => {
    const blocks = [...page.matchAll(/^\.nf\n([\s\S]*?)^\.fi$/gm)].map((m) => m[1]!.split("\n"));
    const rows = (pattern: RegExp) => blocks.find((b) => b.some((l) => pattern.test(l)));
    const rules = rows(/^rule +field +medium +high$/)!;
    for (const rule of [
      "dev sold",
      "bundled supply",
      "top\\-10 holding",
      "liquidity against market cap",
      "rug status",
    ])
      expect(
        rules.some((l) => l.startsWith(`${rule}  `)),
        rule,
      ).toBe(true);
    const settings = rows(/^ {2}base\\-url +API base URL/)!;
    for (const name of ["chain", "output", "timeout", "retries", "pay\\-network", "daily\\-cap", "cache"])
      expect(
        settings.some((l) => l.startsWith(`  ${name}  `)),
        name,
      ).toBe(true);
    // Paragraphs stay filled text: a sentence of the notes is one line of the source, not a block.
    expect(page).toContain("\n.PP\nA token's level is the highest any rule gives it; low when none applies.");
  });

  it("is what the build wrote to dist/tokenintel.1, which package.json ships as the man page", () => {
    expect(existsSync(built), "run `npm run build` first").toBe(true);
    expect(readFileSync(built, "utf8")).toBe(page);
    expect(pkg.man).toEqual(["./dist/tokenintel.1"]);
  });

  const hasMan = spawnSync("man", ["--version"]).status === 0;
  // In the C locale too (an ASCII terminal, as on a machine with no LANG): groff lacks some glyphs there.
  it.runIf(hasMan && existsSync(built)).each([
    ["the environment's locale", {}],
    ["the C locale", { LC_ALL: "C", LANG: "C" }],
  ])("renders with man, without a warning, in %s", (_, locale) => {
    const r = spawnSync("man", ["--warnings", "-l", built], {
      encoding: "utf8",
      env: { ...process.env, MANWIDTH: "100", MANPAGER: "cat", PAGER: "cat", ...locale },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("tokenintel - token intelligence in your terminal");
    expect(r.stdout).toMatch(/tokenintel version --verbose/);
  });
});
