import { instructions, listedTool } from "../../src/commands/mcp/catalog.js";
import { MCP_CLIENTS } from "../../src/commands/mcp/clients.js";
import { DEFAULT_TOOL_LIMIT, MAX_TOOL_LIMIT } from "../../src/commands/mcp/tools.js";
import { DEFAULT_SKILL_DIR, SKILL_CLIENTS, SKILL_MARK } from "../../src/commands/skill/clients.js";
import { USDC_NETWORKS } from "../../src/contract/assets.js";
import { ENDPOINTS, type EndpointSpec } from "../../src/contract/endpoints.js";
import { EXIT_MEANINGS, ExitCode } from "../../src/errors.js";
import { GLOBAL_FLAGS } from "../../src/flags/global.js";
import { PAYMENT_FLAGS } from "../../src/flags/payment.js";
import { SETTINGS, type Setting } from "../../src/flags/settings-table.js";
import { longName } from "../../src/flags/table.js";
import { DEFAULT_MAX_PAYMENT, DEFAULT_MAX_SPEND } from "../../src/payment/amounts.js";
import { LEDGER_FILE_NAME, SANDBOX_LEDGER_FILE_NAME } from "../../src/payment/ledger.js";
import { MAX_PAYMENT_VALIDITY_SECONDS } from "../../src/payment/read-back.js";
import { SANDBOX_API_KEY, TokenSet } from "../../src/sandbox/tokens.js";
import { ENVIRONMENT, FILES } from "../man-page.js";
import { optionRows } from "./command-page.js";
import { cell, code, fence, GENERATED, table, text } from "./markdown.js";
import type { DocsModel } from "./model.js";

// The topic pages of docs/reference/ (configuration, exit codes, AI agents, the index) and the topic
// sections the payments and sandbox pages add to their command's: each fact from its table (the
// settings, the environment, the exit codes, the catalogue, the registry, the assets, the sandbox's
// data set), with the few sentences that tie them together.

const page = (title: string, blocks: string[]) =>
  `${[GENERATED, `# ${title}`, ...blocks, "[All commands](README.md)"].join("\n\n")}\n`;

/** A setting's default as a reader writes it (a duration in seconds), or what the unset value means. */
function defaultOf(setting: Setting): string {
  const value = setting.default;
  if (value === undefined) return cell(setting.unset ?? "");
  if (setting.flag.kind === "ttl" && value === 0) return `${code("0")} (off)`;
  if (typeof value === "number" && (setting.flag.kind === "duration" || setting.flag.kind === "ttl"))
    return code(`${value / 1000}s`);
  return code(String(value));
}

export function configurationPage(): string {
  const settings = Object.entries(SETTINGS as Record<string, Setting>).map(([name, s]) => [
    code(name),
    code(longName(s.flag)),
    code(s.env),
    defaultOf(s),
    cell(s.description),
  ]);
  return page("Configuration", [
    `A run takes each setting from its flag, else its environment variable, else the config store (\`tokenintel config set\`), else its default. \`tokenintel config list\` shows each setting's value and where it comes from. A value a flag or a variable holds that cannot be read is an error naming it (exit ${ExitCode.usage}); \`config set\` refuses one, and \`config list\` marks a stored one that is not valid.`,
    "## Global options",
    "Accepted anywhere on the command line, by every command.",
    table(["option", "value", "what it does"], optionRows(GLOBAL_FLAGS)),
    "## Settings",
    table(["setting", "flag", "environment", "default", "what it is"], settings),
    "## Environment",
    table(
      ["variable", "what it is"],
      ENVIRONMENT.map(([name, meaning]) => [code(name), cell(meaning)]),
    ),
    "## Files",
    table(
      ["file", "what it is"],
      FILES.map(([name, meaning]) => [code(name), cell(meaning)]),
    ),
    "The API key: [auth](auth.md). Durations, dates and the other values flags take: each command's options table.",
  ]);
}

export function exitCodesPage(): string {
  const rows = Object.entries(ExitCode).map(([name, value]) => [
    code(String(value)),
    cell(EXIT_MEANINGS[name as keyof typeof ExitCode]),
  ]);
  return page("Exit codes", [
    table(["code", "meaning"], rows),
    "An error is one line on stderr, `tokenintel: <message>`, with the HTTP status and the server's own message when there is one; `--verbose` adds the details. stdout carries data only.",
  ]);
}

function toolsTable(model: DocsModel): string {
  const rows = model.tools.map((tool) => {
    const schema = listedTool(tool).inputSchema as { properties: object; required?: string[] };
    const required = new Set(schema.required ?? []);
    const args = Object.keys(schema.properties).map((k) => (required.has(k) ? `**${k}**` : k));
    return [code(tool.spec.name), cell(tool.spec.title), cell(tool.spec.description), args.join(", ")];
  });
  return table(["tool", "title", "what it answers", "arguments (required in bold)"], rows);
}

function skillSection(): string[] {
  const rows = SKILL_CLIENTS.map((c) => [
    c.client,
    c.user.map(code).join(", "),
    c.project.map(code).join(", "),
  ]);
  return [
    "## The agent skill",
    `\`tokenintel skill\` prints an Agent Skills file (SKILL.md) made from the same tables: when to use tokenintel, the commands an agent needs, the flags that keep answers small, costs and caps, exit codes and the sandbox. \`tokenintel skill install\` writes it to ${code(`${DEFAULT_SKILL_DIR}/tokenintel/SKILL.md`)} (Claude Code's folder for the user), or into the folder \`--dir\` names; it replaces only a SKILL.md it wrote itself (its front matter says ${code(SKILL_MARK)}) and leaves any other file as it is (exit 2). The package ships the file as \`skills/tokenintel/SKILL.md\`. Where clients read skills, as their docs say:`,
    table(["client", "the user's folders", "a project's folders"], rows),
    "The whole command: [skill](skill.md).",
  ];
}

/** The size of the tools/list answer's tools, as the server sends them. */
function listSize(model: DocsModel): string {
  const bytes = Buffer.byteLength(JSON.stringify({ tools: model.tools.map(listedTool) }));
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function agentsPage(model: DocsModel): string {
  const compact = model.tools
    .filter((t) => t.spec.compact?.length)
    .map((t) => [code(t.spec.name), t.spec.compact!.map(code).join(", ")]);
  return page("AI agents: the MCP server and the skill", [
    "## The MCP server",
    `\`tokenintel mcp\` serves the commands to AI agents as read-only tools over stdio (the whole command: [mcp](mcp.md)). \`tokenintel mcp --print-config <client>\` prints the entry that registers it with ${MCP_CLIENTS.map(code).join(", ")}. The tools it lists:`,
    toolsTable(model),
    `The tool list (the \`tools\` of tools/list's answer) is ${listSize(model)} of JSON. A data tool answers ${DEFAULT_TOOL_LIMIT} records by default (\`limit\`, at most ${MAX_TOOL_LIMIT}), each with a compact set of fields (\`fields\` asks for others):`,
    table(["tool", "fields of a compact record"], compact),
    "Unknown arguments and bad values are refused in the agent's words, naming the argument. Every output property is typed, and the text block carries the same data as the structured content, for clients that hand the model only text.",
    "What the server tells an agent once, for every tool (its instructions):",
    fence("text", instructions(model.tools, false)),
    ...skillSection(),
  ]);
}

/** The priced endpoints of the registry, with the command that reads each. */
function priceRows(): string[][] {
  return Object.values(ENDPOINTS as Record<string, EndpointSpec>).map((e) => [
    code(`${e.method} ${e.path}`),
    typeof e.command === "string" ? code(e.command) : "`api`",
    e.price,
  ]);
}

/** The payments page's topic: paying per request with x402, after the ledger command's own sections. */
export function paymentsTopic(model: DocsModel): string[] {
  const paying = model.commands
    .filter((d) => Object.hasOwn(d.module.flags, "pay"))
    .map((d) => code(d.path[0]!));
  const networks = Object.values(USDC_NETWORKS).map((n) => [n.label, code(n.caip2), code(n.asset)]);
  return [
    "## Paying per request (x402)",
    `Without an API key, a command run with \`--pay\` pays each request it makes in USDC (x402), signed with the wallet key in \`TOKENINTEL_WALLET_KEY\` (or the file \`--wallet-key-file\` names); the API key is then not sent. The commands that take \`--pay\`: ${paying.join(", ")}; \`tokenintel mcp --pay\` makes every tool pay. \`--dry-run\` says what a command would pay, per request and in total, and pays nothing.`,
    "### Prices",
    "What each endpoint charges a request, as the provider's pricing gives it (`tokenintel api --list` prints the same):",
    table(["endpoint", "read by", "USDC a request"], priceRows()),
    "### Caps",
    `\`--max-payment\` refuses an offer over it (default ${DEFAULT_MAX_PAYMENT} a request), \`--max-spend\` a command's total (default ${DEFAULT_MAX_SPEND}, payments the server refused included), \`--daily-cap\` what every run signs in 24 hours (counted from the ledger); a cap reached stops the run with exit ${ExitCode.payment}, the records already paid for printed.`,
    table(["option", "value", "what it does"], optionRows(PAYMENT_FLAGS)),
    "### Networks and assets",
    "Only USDC is paid, by EIP-3009 authorizations, on these networks, and only when the offer's EIP-712 domain (name and version) is the one the x402 EVM package gives for that asset. When the server offers several networks, Polygon's offer is taken first (the provider settles there by default), then the others in the server's order; `--pay-network` pays on one network only, and `--pay-to` allows only the payees it names (an offer to any other is refused before anything is signed).",
    table(["network", "id", "USDC contract"], networks),
    ...paymentRules(),
  ];
}

/** How a payment is made and kept: the rules the payment code keeps, in words. */
function paymentRules(): string[] {
  return [
    "### How a payment is made",
    [
      "- Both protocol versions are spoken (v1: the requirements in the 402 body, `X-PAYMENT`; v2: the `PAYMENT-REQUIRED` and `PAYMENT-SIGNATURE` headers), with the `exact` scheme on EVM networks, signed by the x402 reference client packages (`@x402/core`, `@x402/evm`, `viem`), which are loaded only when a payment is made. `tokenintel api` takes the same flags.",
      `- Before a payment header is sent, it is decoded and read back: one authorization for exactly the amount checked against the caps, to the offer's payee, from your wallet, valid for at most ${MAX_PAYMENT_VALIDITY_SECONDS} s whatever the offer asks; otherwise nothing is sent ([safety](../safety.md)).`,
      `- Each request is paid once: a request retried after its payment went out carries the same payment, and a 402 to a paid request is a refusal (exit ${ExitCode.payment}), never a reason to sign again. Without a page count, pages are not requested ahead when each one costs money.`,
      "- The wallet key comes from `TOKENINTEL_WALLET_KEY` or the file `--wallet-key-file` names (yours, not readable by others), never from an argument; it is never stored and never printed. `--verbose` shows the payee and the asset of every payment.",
      `- Without a key and without \`--pay\`, a 402 ends the command with exit ${ExitCode.payment} and a message with the price, how many requests the command would need (when known), and the two ways to proceed.`,
    ].join("\n"),
    "### The ledger and the daily cap",
    `Every authorization \`--pay\` signs is written to the ledger (\`${LEDGER_FILE_NAME}\` in the data folder: \`TOKENINTEL_DATA_DIR\`, else \`$XDG_DATA_HOME/tokenintel\`, by default \`~/.local/share/tokenintel\`) before the request that carries it is sent, then its outcome when the answer comes: settled (with the transaction hash and payer from the server's payment-response header), refused (with the server's reason), or unknown (the connection died after the payment was sent, or the run was killed: the authorization may still be cashed until it expires). Lines are appended under a lock and fsynced, mode 0600, so runs at once never interleave; a line that cannot be written stops the payment. \`cache clear\` never touches it; secrets in the recorded command line are masked. Payments made with \`--sandbox\` go to \`${SANDBOX_LEDGER_FILE_NAME}\` beside it.`,
    "`--daily-cap` refuses to sign a payment that would take the total signed in the last 24 hours, by every run on this machine, over the cap; the check and the ledger line are made under one lock, so two runs at once cannot both fit into the same room. A clock set back between runs hides no payment from it. Reaching it stops the run (the pages already paid for are printed), and the message says when the cap frees up; `--dry-run` says what the cap leaves.",
  ];
}

/** The sandbox page's topic: what --sandbox gives, before the command's own sections. */
export function sandboxTopic(): string[] {
  const counts = new TokenSet().counts;
  return [
    "## Using the sandbox",
    `${text(GLOBAL_FLAGS.sandbox.description[0]!.toUpperCase() + GLOBAL_FLAGS.sandbox.description.slice(1))}: \`--sandbox\` on any command starts it in-process on a free port. \`tokenintel sandbox\` serves it for other programs, with faults to test against (below). Its data set is synthetic and the same at every start: ${counts.base.toLocaleString("en-US")} tokens on Base and ${counts.solana.toLocaleString("en-US")} on Solana by default (\`--tokens\`). It takes one API key, ${code(SANDBOX_API_KEY)}, and answers keyless directory requests with x402 offers it verifies on a simulated chain, so \`--pay\` can be tried with a throwaway wallet key and no network. During a \`--watch\` with \`--sandbox\`, its markets move every second (as \`tokenintel sandbox --live 1\` does), so a watch has something to show.`,
    "`tokenintel sandbox` prints its URL and its demo key; any command reaches it with `--base-url` and the key:",
    fence(
      "sh",
      `tokenintel sandbox --port 4020\ntokenintel market --base-url http://127.0.0.1:4020 --api-key ${SANDBOX_API_KEY} -c base -e virtuals --limit 5`,
    ),
  ];
}

/** docs/reference/README.md: every command and topic page, and the options commands share. */
export function indexPage(model: DocsModel, topics: Array<[string, string]>): string {
  const commands = model.commands.map((d) => [`[${d.path[0]}](${d.path[0]}.md)`, cell(d.module.description)]);
  const takers = new Map<string, string[]>();
  for (const d of model.commands)
    for (const flag of Object.values(d.module.flags))
      takers.set(longName(flag), [...(takers.get(longName(flag)) ?? []), d.path[0]!]);
  const shared = [...takers]
    .filter(([, names]) => names.length > 1)
    .map(([flag, names]) => [code(flag), names.map((n) => `[${n}](${n}.md)`).join(", ")]);
  return page("tokenintel reference", [
    text(model.program.description()),
    "## Commands",
    table(["command", "what it does"], commands),
    "## Topics",
    topics.map(([file, title]) => `- [${title}](${file})`).join("\n"),
    "## Options several commands take",
    table(["option", "commands"], shared),
  ]);
}
