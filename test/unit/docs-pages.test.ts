import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { showsOutput } from "../../scripts/docs/command-page.js";
import { DOCS_CLOCK, withClock } from "../../scripts/docs/console.js";
import {
  applyRegions,
  generatePages,
  REFERENCE_DIR,
  readmeRegions,
  SKILL_FILE,
} from "../../scripts/docs/generate.js";
import { code, consoleBlocks, text } from "../../scripts/docs/markdown.js";
import { allCommands, type DocsModel, loadModel } from "../../scripts/docs/model.js";
import { loadTools } from "../../src/commands/mcp/catalog.js";
import { SKILL_MARK } from "../../src/commands/skill/clients.js";
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_PAGES,
  formatBytes,
  MAX_JSON_DEPTH,
} from "../../src/contract/limits.js";
import { GLOBAL_FLAGS } from "../../src/flags/global.js";
import { DEFAULT_MAX_SPEND } from "../../src/payment/amounts.js";
import { MAX_PAYMENT_VALIDITY_SECONDS } from "../../src/payment/read-back.js";
import { fullProgram } from "../../src/program.js";
import { run } from "../commands/harness.js";
import { tempDir } from "../e2e/helpers.js";

// The docs cannot drift from the program: every page `npm run docs` writes is regenerated here from
// the program's tables and compared with the committed file (the outputs its console blocks show
// are taken from the committed pages: the examples test runs them again), and the README keeps to
// what a first day needs.

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");
const STALE = "stale: run `npm run docs` and commit what it writes";

let model: DocsModel;
beforeAll(async () => {
  model = await loadModel();
});

/** The outputs the committed reference pages show, by line. */
function committedOutputs(): Map<string, string> {
  const shown = new Map<string, string>();
  for (const file of readdirSync(join(root, REFERENCE_DIR)))
    for (const block of consoleBlocks(read(`${REFERENCE_DIR}/${file}`))) shown.set(block.line, block.shown);
  return shown;
}

describe("the generated docs", () => {
  it("are what the program's tables make now, page for page", () => {
    const shown = committedOutputs();
    const pages = generatePages(model, (line) => (showsOutput(line) ? shown.get(line) : undefined));
    for (const [path, page] of pages) expect(read(path), `${path}: ${STALE}`).toBe(page);
    const committed = readdirSync(join(root, REFERENCE_DIR)).map((f) => `${REFERENCE_DIR}/${f}`);
    expect(committed.sort(), STALE).toEqual(
      [...pages.keys()].filter((p) => p.startsWith(REFERENCE_DIR)).sort(),
    );
  });

  it("include the README's generated parts as the tables make them", () => {
    const readme = read("README.md");
    expect(applyRegions(readme, readmeRegions(model)), `README.md: ${STALE}`).toBe(readme);
  });

  it("name each option of every command and subcommand on its command's page, and the global ones", () => {
    for (const doc of allCommands(model)) {
      const page = read(`${REFERENCE_DIR}/${doc.path[0]}.md`);
      for (const flag of Object.values(doc.module.flags)) {
        expect(page, `tokenintel ${doc.path.join(" ")}`).toContain(code(flag.flags));
        if (flag.negation) expect(page).toContain(code(flag.negation.flags));
      }
    }
    const configuration = read(`${REFERENCE_DIR}/configuration.md`);
    for (const flag of Object.values(GLOBAL_FLAGS)) expect(configuration).toContain(code(flag.flags));
  });

  it("give every command a page, and no page to a command the program does not have", () => {
    const names = model.commands.map((d) => `${d.path[0]}.md`);
    for (const name of names) expect(readdirSync(join(root, REFERENCE_DIR))).toContain(name);
    expect(names).toContain("skill.md");
  });
});

describe("README.md", () => {
  const readme = read("README.md");

  it("is at most 25 KB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(25 * 1024);
  });

  it("names every tool the MCP server lists, and no other", async () => {
    const tools = await loadTools(await fullProgram(), false);
    expect(tools.length).toBeGreaterThanOrEqual(10);
    const section = readme.slice(
      readme.indexOf("## For AI agents"),
      readme.indexOf("## Keys and configuration"),
    );
    for (const tool of tools) expect(section, tool.spec.name).toContain(`\`${tool.spec.name}\``);
    const named = [...section.matchAll(/^- `([a-z_]+)`:/gm)].map((m) => m[1]);
    expect(named).toEqual(tools.map((t) => t.spec.name));
  });

  it("keeps the commands CI and the examples test read: the sandbox run and the tests", () => {
    expect(readme).toContain(
      "npm ci && npx tokenintel market --sandbox --chain base --ecosystem virtuals --limit 10",
    );
    expect(readme).toContain("npm ci && npm test");
  });
});

describe("the agent skill", () => {
  it("is what `tokenintel skill` prints, and the file the package ships", async () => {
    const dir = tempDir("tokenintel-skill-");
    const r = await run(["skill"], dir.path).finally(() => dir.remove());
    expect(r.code).toBe(0);
    expect(read(SKILL_FILE), `${SKILL_FILE}: ${STALE}`).toBe(r.stdout);
  });

  it("opens with valid Agent Skills front matter: name, description, the mark", () => {
    const skill = read(SKILL_FILE);
    const front = /^---\n([\s\S]*?)\n---\n/.exec(skill);
    expect(front).not.toBeNull();
    const fields = new Map(
      front![1]!.split("\n").map((l) => [l.replace(/:.*$/, ""), l.replace(/^[^:]*:\s*/, "")]),
    );
    const name = fields.get("name")!;
    expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(SKILL_FILE.split("/").at(-2)).toBe(name);
    const description = JSON.parse(fields.get("description")!) as string;
    expect(description.length).toBeGreaterThan(0);
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(description).not.toMatch(/[<>]/);
    expect(front![1]).toContain(`metadata:\n  ${SKILL_MARK}`);
    // Under the 500 lines the format advises for a SKILL.md's body.
    expect(skill.split("\n").length).toBeLessThan(500);
  });
});

describe("docs/safety.md", () => {
  it("states the limits the code keeps", () => {
    const safety = read("docs/safety.md");
    expect(safety).toContain(`**${formatBytes(DEFAULT_MAX_BODY_BYTES)}**`);
    expect(safety).toContain(`**${DEFAULT_MAX_PAGES.toLocaleString("en-US")} pages**`);
    expect(safety).toContain(`**${MAX_JSON_DEPTH}**`);
    expect(safety).toContain(`**${MAX_PAYMENT_VALIDITY_SECONDS} s**`);
    expect(safety).toContain(`\`--max-spend\` (default ${DEFAULT_MAX_SPEND})`);
  });
});

describe("the docs' pieces", () => {
  it("run a command at the docs' clock, and give the real clock back", async () => {
    const before = Date.now();
    const at = await withClock(DOCS_CLOCK, async () => [
      Date.now(),
      Date.parse(new Date().toISOString()),
      new Date(0).getTime(),
    ]);
    expect(at[0]! - DOCS_CLOCK).toBeLessThan(1000);
    expect(at[1]! - DOCS_CLOCK).toBeLessThan(1000);
    expect(at[2]).toBe(0);
    expect(Math.abs(Date.now() - before)).toBeLessThan(60_000);
  });

  it("refuse a README without one of its generated parts, or with one twice", () => {
    const part = (name: string) => `<!-- generated: ${name} -->\nold\n<!-- end generated: ${name} -->`;
    expect(applyRegions(`a\n${part("x")}\nb`, { x: "new" })).toBe(`a\n${part("x").replace("old", "new")}\nb`);
    expect(() => applyRegions("a", { x: "new" })).toThrow(/lacks the generated parts: x/);
    expect(() => applyRegions(`${part("x")}${part("x")}`, { x: "new" })).toThrow(/twice/);
    expect(() => applyRegions(part("y"), { x: "new" })).toThrow(/"y"/);
  });

  it("keep a table cell's text as text: no tag, no emphasis, no lost backslash", () => {
    expect(text("--cache <ttl> *not* \\, __proto__")).toBe(
      "--cache &lt;ttl> \\*not\\* \\\\, \\_\\_proto\\_\\_",
    );
  });
});
