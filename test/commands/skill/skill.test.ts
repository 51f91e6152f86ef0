import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SKILL_MARK, writtenBySkill } from "../../../src/commands/skill/clients.js";
import { tempDir } from "../../e2e/helpers.js";
import { run } from "../harness.js";

// `tokenintel skill` prints the agent skill; `skill install` writes it where a client reads skills,
// atomically, and never over a file it did not write.

const dirs: Array<{ path: string; remove: () => void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A home folder of its own, and a run of tokenintel with it as $HOME. */
function home() {
  const dir = tempDir("tokenintel-skill-");
  dirs.push(dir);
  const tokenintel = (...args: string[]) => run(args, join(dir.path, "config"), { env: { HOME: dir.path } });
  return { path: dir.path, tokenintel };
}

describe("tokenintel skill", () => {
  it("prints SKILL.md: front matter with its name, a description and the mark, then the commands", async () => {
    const { tokenintel } = home();
    const r = await tokenintel("skill");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^---\nname: tokenintel\ndescription: "[^"<>]+"\nmetadata:\n {2}generated-by: tokenintel skill\n---\n/,
    );
    expect(r.stdout).toContain("### tokenintel market");
    expect(r.stdout).toContain("## Exit codes");
    expect(writtenBySkill(r.stdout)).toBe(true);
  });

  it("install writes ~/.claude/skills/tokenintel/SKILL.md by default, the same text, private", async () => {
    const { path, tokenintel } = home();
    const printed = (await tokenintel("skill")).stdout;
    const r = await tokenintel("skill", "install");
    expect(r.code).toBe(0);
    const file = join(path, ".claude", "skills", "tokenintel", "SKILL.md");
    expect(r.stderr).toContain(`wrote ${file}`);
    expect(readFileSync(file, "utf8")).toBe(printed);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });

  it("install --dir writes into that skills folder, ~ read as the home folder", async () => {
    const { path, tokenintel } = home();
    expect(
      (await tokenintel("skill", "install", "--dir", join(path, "project", ".agents", "skills"))).code,
    ).toBe(0);
    expect(existsSync(join(path, "project", ".agents", "skills", "tokenintel", "SKILL.md"))).toBe(true);
    expect((await tokenintel("skill", "install", "--dir=~/.gemini/skills")).code).toBe(0);
    expect(existsSync(join(path, ".gemini", "skills", "tokenintel", "SKILL.md"))).toBe(true);
  });

  it("install replaces a SKILL.md it wrote before", async () => {
    const { path, tokenintel } = home();
    const folder = join(path, ".claude", "skills", "tokenintel");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "SKILL.md"), `---\nname: tokenintel\nmetadata:\n  ${SKILL_MARK}\n---\nold\n`);
    expect((await tokenintel("skill", "install")).code).toBe(0);
    expect(readFileSync(join(folder, "SKILL.md"), "utf8")).toBe((await tokenintel("skill")).stdout);
  });

  it("install leaves a SKILL.md it did not write as it is: exit 2, naming the file", async () => {
    const { path, tokenintel } = home();
    const folder = join(path, ".claude", "skills", "tokenintel");
    mkdirSync(folder, { recursive: true });
    const file = join(folder, "SKILL.md");
    // The mark in the body, not the front matter, is not the mark.
    const mine = `---\nname: tokenintel\ndescription: my own\n---\n${SKILL_MARK}\n`;
    writeFileSync(file, mine);
    const r = await tokenintel("skill", "install");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tokenintel: ${file} was not written by 'tokenintel skill install': left as it is (move it away, or give another --dir)\n`,
    );
    expect(readFileSync(file, "utf8")).toBe(mine);
  });

  it("install never writes through a link where SKILL.md is, nor over a folder", async () => {
    const { path, tokenintel } = home();
    const folder = join(path, ".claude", "skills", "tokenintel");
    mkdirSync(folder, { recursive: true });
    const target = join(path, "elsewhere.md");
    writeFileSync(target, `---\nmetadata:\n  ${SKILL_MARK}\n---\nnot to be touched\n`);
    symlinkSync(target, join(folder, "SKILL.md"));
    const r = await tokenintel("skill", "install");
    expect(r.code).toBe(2);
    expect(readFileSync(target, "utf8")).toContain("not to be touched");
    expect(lstatSync(join(folder, "SKILL.md")).isSymbolicLink()).toBe(true);

    const other = join(path, "other");
    mkdirSync(join(other, "tokenintel", "SKILL.md"), { recursive: true });
    expect((await tokenintel("skill", "install", "--dir", other)).code).toBe(2);
  });
});
