import type { Command } from "commander";
import { CHAINS } from "../../contract/api.js";
import { commandsByPrice } from "../../contract/prices.js";
import { EXIT_MEANINGS, ExitCode } from "../../errors.js";
import { longName } from "../../flags/table.js";
import { DEFAULT_MAX_PAYMENT, DEFAULT_MAX_SPEND } from "../../payment/amounts.js";
import { WHERE_OPS } from "../../query/records.js";
import { type CommandModule, moduleOf } from "../command.js";
import { toolSpecOf } from "../mcp/catalog.js";
import type { ToolSpec } from "../mcp/tools.js";
import { SKILL_MARK, SKILL_NAME } from "./clients.js";

/** --where's comparisons, as the filter reads them (its ~ is said apart). */
const COMPARISONS = WHERE_OPS.filter((op) => op !== "~").join(" ");

// The agent skill (SKILL.md, the Agent Skills format), written from the program's own tables: the
// commands an agent needs are those the MCP server serves as tools (with their registry entries'
// words, required flags, compact fields and prices), then the output flags that keep answers small,
// the payment caps, the exit codes and the sandbox. Nothing here names a command by hand.

/** The flags that name tokens (the MCP tools' token lists). */
const TOKEN_LISTS = ["tickers", "addresses", "ids"] as const;

interface ToolCommand {
  module: CommandModule;
  tool: ToolSpec;
}

function toolCommands(program: Command): ToolCommand[] {
  return program.commands.flatMap((cmd) => {
    const module = moduleOf(cmd);
    const tool = module && toolSpecOf(module);
    return module && tool ? [{ module, tool }] : [];
  });
}

/** What a command needs to be called at all: its chain, its tokens, its argument. */
function needs({ module, tool }: ToolCommand): string {
  const lists = TOKEN_LISTS.filter((key) => Object.hasOwn(module.flags, key));
  const parts = [
    ...(tool.required?.includes("chain") ? [`\`--chain ${CHAINS.join("|")}\``] : []),
    ...(tool.needsTokens && lists.length
      ? [`one of ${lists.map((key) => `\`${longName(module.flags[key]!)}\``).join(", ")}`]
      : []),
    ...(tool.argument ? [`the ${tool.argument.name} as its argument`] : []),
  ];
  return parts.length ? ` Needs ${parts.join(", ")}.` : "";
}

/** A command's first example that runs against the user's API (else its first). */
function example(module: CommandModule): string | undefined {
  const examples = module.examples ?? [];
  return examples.find((line) => !line.includes("--sandbox")) ?? examples[0];
}

/** A description as a sentence: a capital first, a full stop last. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

const sh = (line: string) => `\`\`\`sh\n${line}\n\`\`\``;

function commandsSection(commands: ToolCommand[]): string[] {
  return [
    "## Commands",
    ...commands.flatMap((command) => {
      const line = example(command.module);
      return [
        `### tokenintel ${command.module.name}`,
        `${sentence(command.module.description)}${needs(command)}`,
        ...(line ? [sh(line)] : []),
      ];
    }),
  ];
}

function smallAnswers(commands: ToolCommand[]): string[] {
  const compact = commands.filter((c) => c.module.definition && c.tool.compact?.length);
  return [
    "## Keep answers small",
    [
      "- `--json` prints one JSON document (the default when stdout is not a terminal), every number exactly as the service sent it; `--ndjson` prints one record a line.",
      "- `--fields a.b,c` keeps only those dot paths; `tokenintel <command> --fields` lists every path a command's records have.",
      `- \`--limit n\` stops after n records, requesting only the pages needed; \`--where 'path>value'\` filters (\`${COMPARISONS}\`, \`~\` for a substring); \`--sort path:desc\` sorts (it reads every page first).`,
      "- `tokenintel schema <command>` describes a command's options and fields as JSON.",
    ].join("\n"),
    "The fields worth asking for first, per command (a list names each form the service may send a field in, so a record has some of them: a field no record had is named in a warning on stderr, and the exit code stays 0):",
    compact.map((c) => `- ${c.module.name}: \`--fields ${c.tool.compact!.join(",")}\``).join("\n"),
  ];
}

function costs(commands: ToolCommand[]): string[] {
  const priced = commandsByPrice(commands.map(({ module }) => module.name));
  const prices = [...priced].map(([price, names]) => `${price} USDC a request (${names.join(", ")})`);
  return [
    "## Costs and caps",
    [
      "- With an API key (`TOKENINTEL_API_KEY`, or `tokenintel auth login`), requests are not paid one by one.",
      `- Without one, \`--pay\` pays each request with x402 in USDC, from the wallet in \`TOKENINTEL_WALLET_KEY\`: ${prices.join("; ")}.`,
      `- Caps: \`--max-payment\` per request (default ${DEFAULT_MAX_PAYMENT}), \`--max-spend\` for the whole command (default ${DEFAULT_MAX_SPEND}), \`--daily-cap\` for every run in 24 hours. \`--dry-run\` says what a command would pay, and pays nothing.`,
      `- Run \`--dry-run\` first and ask the user before any \`--pay\`. A payment needed and not made is exit ${ExitCode.payment}.`,
    ].join("\n"),
  ];
}

function exitCodes(): string[] {
  return [
    "## Exit codes",
    [
      "| code | meaning |",
      "|---|---|",
      ...Object.entries(ExitCode).map(
        ([name, code]) => `| ${code} | ${EXIT_MEANINGS[name as keyof typeof ExitCode]} |`,
      ),
    ].join("\n"),
    "An error ends the run with one line on stderr, `tokenintel: <message>`, after any warnings (a retry, a field no record had); stdout carries data only.",
  ];
}

function sandbox(commands: ToolCommand[]): string[] {
  const first = commands[0]?.module.examples?.find((line) => line.includes("--sandbox"));
  return [
    "## Try it on the sandbox",
    "`--sandbox` on any command runs it against a local API with synthetic data, started for that command: no key, no network, nothing paid for real.",
    ...(first ? [sh(first)] : []),
  ];
}

/** The skill's description: what tokenintel answers (its tools' titles) and when to use it. */
function description(commands: ToolCommand[]): string {
  const titles = commands.map((c) => c.tool.title.toLowerCase()).join(", ");
  return `Read-only token intelligence for Base and Solana from the command line (tokenintel): ${titles}. Use it when asked about a crypto token's price, market cap, volume, liquidity, holders, smart-money flows, dev-wallet selling, staking, risk, trending tokens or price history on Base or Solana.`;
}

/** SKILL.md for the program as built: front matter (name, description, the mark), then the body. */
export function renderSkill(program: Command): string {
  const commands = toolCommands(program);
  const tools = commands.map((c) => `\`${c.tool.name}\``).join(", ");
  const front = [
    "---",
    `name: ${SKILL_NAME}`,
    `description: ${JSON.stringify(description(commands))}`,
    "metadata:",
    `  ${SKILL_MARK}`,
    "---",
  ].join("\n");
  const blocks = [
    front,
    "# tokenintel",
    `${program.description()} It only reads: it never trades, and pays only for its own requests (\`--pay\`, below).`,
    ...commandsSection(commands),
    ...smallAnswers(commands),
    ...costs(commands),
    ...exitCodes(),
    ...sandbox(commands),
    "## MCP",
    `A client that speaks the Model Context Protocol can run \`tokenintel mcp\` instead: the same commands as tools (${tools}).`,
  ];
  return `${blocks.join("\n\n")}\n`;
}
