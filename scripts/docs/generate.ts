import { renderSkill } from "../../src/commands/skill/render.js";
import { commandsByPrice } from "../../src/contract/prices.js";
import { EXIT_MEANINGS, ExitCode } from "../../src/errors.js";
import { DEFAULT_MAX_PAYMENT, DEFAULT_MAX_SPEND } from "../../src/payment/amounts.js";
import { commandPage, type OutputOf } from "./command-page.js";
import { cell, code, table } from "./markdown.js";
import type { CommandDoc, DocsModel } from "./model.js";
import {
  agentsPage,
  configurationPage,
  exitCodesPage,
  indexPage,
  paymentsTopic,
  sandboxTopic,
} from "./topics.js";

// Everything `npm run docs` writes from the program, by path: a page per command in docs/reference/,
// the topic pages, the index, the agent skill, and the README's generated parts. The same function
// runs in the test that fails when a committed page is stale (with the outputs the pages show now).

export const REFERENCE_DIR = "docs/reference";
export const SKILL_FILE = "skills/tokenintel/SKILL.md";

/** Topic pages of their own: file, title, page. */
const TOPICS: Array<[string, string, (model: DocsModel) => string]> = [
  ["configuration.md", "Configuration: global options, settings, environment, files", configurationPage],
  ["exit-codes.md", "Exit codes", exitCodesPage],
  ["ai-agents.md", "AI agents: the MCP server's tools and the agent skill", agentsPage],
];

/** Topics a command's page carries after its own sections: title, sections. */
const COMMAND_TOPICS: Record<string, [string, (model: DocsModel) => string[]]> = {
  payments: ["Payments: paying per request with x402, prices, caps, the ledger", paymentsTopic],
  sandbox: ["The sandbox: a local API with synthetic data", () => sandboxTopic()],
};

/** The reference pages and the skill, by path from the repository's root. */
export function generatePages(model: DocsModel, outputOf: OutputOf): Map<string, string> {
  const pages = new Map<string, string>();
  const names = new Set(model.commands.map((d) => d.path[0]!));
  for (const [file] of TOPICS)
    if (names.has(file.replace(/\.md$/, ""))) throw new Error(`the topic page ${file} is a command's name`);
  for (const doc of model.commands) {
    const topic = COMMAND_TOPICS[doc.path[0]!];
    pages.set(`${REFERENCE_DIR}/${doc.path[0]}.md`, commandPage(doc, outputOf, topic?.[1](model)));
  }
  const topics: Array<[string, string]> = [
    ...TOPICS.map(([file, title]): [string, string] => [file, title]),
    ...Object.entries(COMMAND_TOPICS)
      .filter(([name]) => names.has(name))
      .map(([name, [title]]): [string, string] => [`${name}.md`, title]),
  ];
  for (const [file, , render] of TOPICS) pages.set(`${REFERENCE_DIR}/${file}`, render(model));
  pages.set(`${REFERENCE_DIR}/README.md`, indexPage(model, topics));
  pages.set(SKILL_FILE, renderSkill(model.program));
  return pages;
}

/**
 * A command's example for the README, from its own or its subcommands': the first on the sandbox
 * without a pipe (it runs with no key), else the first without a pipe, else the first.
 */
function readmeExample(doc: CommandDoc): string {
  const examples = [doc, ...doc.subcommands].flatMap((d) => d.module.examples ?? []);
  const plain = examples.filter((l) => !l.includes("|"));
  return plain.find((l) => l.includes("--sandbox")) ?? plain[0] ?? examples[0] ?? "";
}

/** The README's generated parts, by name. */
export function readmeRegions(model: DocsModel): Record<string, string> {
  const commands = model.commands.map((d) => [
    `[${d.path[0]}](${REFERENCE_DIR}/${d.path[0]}.md)`,
    cell(d.module.description),
    code(readmeExample(d)),
  ]);
  const prices = commandsByPrice(model.commands.map((d) => d.path[0]!));
  return {
    commands: table(["command", "what it does", "for example"], commands),
    tools: model.tools.map((t) => `- ${code(t.spec.name)}: ${cell(t.spec.title.toLowerCase())}`).join("\n"),
    prices: [
      ...[...prices].map(([price, names]) => `- ${price} USDC a request: ${names.map(code).join(", ")}`),
      `- caps by default: \`--max-payment ${DEFAULT_MAX_PAYMENT}\`, \`--max-spend ${DEFAULT_MAX_SPEND}\`, no \`--daily-cap\``,
    ].join("\n"),
    "exit-codes": table(
      ["code", "meaning"],
      Object.entries(ExitCode).map(([name, value]) => [
        code(String(value)),
        cell(EXIT_MEANINGS[name as keyof typeof ExitCode]),
      ]),
    ),
  };
}

const REGION = /<!-- generated: ([\w-]+) -->\n?([\s\S]*?)<!-- end generated: \1 -->/g;

/** A text with each generated part replaced by its new content; every part named must be there, once. */
export function applyRegions(markdown: string, regions: Record<string, string>): string {
  const seen = new Set<string>();
  const out = markdown.replace(REGION, (_, name: string) => {
    if (!Object.hasOwn(regions, name)) throw new Error(`no generated part is called "${name}"`);
    if (seen.has(name)) throw new Error(`the generated part "${name}" appears twice`);
    seen.add(name);
    return `<!-- generated: ${name} -->\n${regions[name]}\n<!-- end generated: ${name} -->`;
  });
  const missing = Object.keys(regions).filter((name) => !seen.has(name));
  if (missing.length) throw new Error(`README.md lacks the generated parts: ${missing.join(", ")}`);
  return out;
}
