// The Agent Skills convention: a skill is a folder named after it holding SKILL.md (YAML front
// matter with `name` and `description`, then Markdown). Where each client looks for skills, as its
// own docs say: a folder for the user, and one a project keeps.

export interface SkillClient {
  client: string;
  /** The user's folders, `~` for the home folder. */
  user: readonly string[];
  /** A project's folders, from its root. */
  project: readonly string[];
}

export const SKILL_CLIENTS: readonly SkillClient[] = [
  { client: "Claude Code", user: ["~/.claude/skills"], project: [".claude/skills"] },
  { client: "OpenAI Codex", user: ["~/.agents/skills"], project: [".agents/skills"] },
  {
    client: "GitHub Copilot",
    user: ["~/.copilot/skills", "~/.claude/skills", "~/.agents/skills"],
    project: [".github/skills", ".claude/skills", ".agents/skills"],
  },
  {
    client: "Gemini CLI",
    user: ["~/.gemini/skills", "~/.agents/skills"],
    project: [".gemini/skills", ".agents/skills"],
  },
  {
    client: "OpenCode",
    user: ["~/.config/opencode/skills", "~/.claude/skills", "~/.agents/skills"],
    project: [".opencode/skills", ".claude/skills", ".agents/skills"],
  },
];

/** The skill's name: its folder's name too. */
export const SKILL_NAME = "tokenintel";

/** Where `skill install` writes without --dir: Claude Code's folder for the user. */
export const DEFAULT_SKILL_DIR = "~/.claude/skills";

/** The line of the front matter that marks a SKILL.md as tokenintel's own (metadata's one key). */
export const SKILL_MARK = "generated-by: tokenintel skill";

/** Every folder some client reads, the user's first, each once: what --dir suggests. */
export function skillFolders(): string[] {
  return [
    ...new Set([
      ...SKILL_CLIENTS.flatMap((client) => client.user),
      ...SKILL_CLIENTS.flatMap((client) => client.project),
    ]),
  ];
}

/** Whether a SKILL.md's front matter carries the mark (the file is one `skill install` wrote). */
export function writtenBySkill(text: string): boolean {
  const front = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  return front !== null && front[1]!.split(/\r?\n/).some((line) => line.trim() === SKILL_MARK);
}
