import { flagTable } from "../../flags/table.js";
import { alignColumns } from "../../output/width.js";
import { defineCommand } from "../command.js";
import { DEFAULT_SKILL_DIR, SKILL_CLIENTS, SKILL_MARK, SKILL_NAME, skillFolders } from "./clients.js";

/** Where each client reads skills from: its user folders, then a project's (help keeps these lines). */
function clientLines(): string {
  const rows = SKILL_CLIENTS.flatMap((client) => [
    [client.client, client.user.join(" ")],
    ["", `a project: ${client.project.join(" ")}`],
  ]);
  return alignColumns(rows)
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

const install = defineCommand({
  name: "install",
  description: `write the skill to <dir>/${SKILL_NAME}/SKILL.md, where an agent finds it (default ${DEFAULT_SKILL_DIR}: Claude Code's)`,
  flags: flagTable({
    dir: {
      flags: "--dir <folder>",
      description: `the skills folder to write into (default ${DEFAULT_SKILL_DIR}; a project's: .claude/skills, .agents/skills)`,
      kind: "text",
      suggest: skillFolders(),
    },
  }),
  examples: ["tokenintel skill install", "tokenintel skill install --dir ~/.agents/skills"],
  // A getter: the folders are lined up when help is shown, not at every run's start.
  get notes() {
    return `Clients read skills from these folders:

${clientLines()}

It writes the file whole (a temporary file renamed over it), and only over a SKILL.md it wrote
itself (front matter: '${SKILL_MARK}'): any other file there is left as it is, exit 2.`;
  },
  async run(ctx, opts) {
    const [{ renderSkill }, { installSkill }] = await Promise.all([
      import("./render.js"),
      import("./install.js"),
    ]);
    const file = installSkill(ctx, renderSkill(await ctx.program()), opts.dir);
    ctx.io.info(`tokenintel: wrote ${file}`);
  },
});

export default defineCommand({
  name: "skill",
  description:
    "print the agent skill (SKILL.md): when to use tokenintel, its commands, small answers, costs, exit codes",
  flags: {},
  examples: ["tokenintel skill", "tokenintel skill | head -4"],
  notes: `An Agent Skills file, made from the same tables as --help and the MCP tools: front matter
(name, description), then the commands an agent needs, the flags that keep answers small, what
paying costs and the caps, the exit codes and the sandbox. 'tokenintel skill install' writes it
where an agent looks for skills.`,
  subcommands: [install],
  async run(ctx) {
    const { renderSkill } = await import("./render.js");
    await ctx.io.out(renderSkill(await ctx.program()));
  },
});
