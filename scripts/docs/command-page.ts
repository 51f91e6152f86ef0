import type { ColumnChoice } from "../../src/commands/data/definition.js";
import { type FieldKind, type FieldSpec, isAbsentOk, type Shape } from "../../src/contract/shapes.js";
import type { Flag, FlagKind, FlagTable } from "../../src/flags/table.js";
import { DOCS_CLOCK, DOCS_COLUMNS } from "./console.js";
import { inProcessPlan } from "./lines.js";
import { cell, code, consoleBlock, fence, GENERATED, notes, table, text } from "./markdown.js";
import type { CommandDoc } from "./model.js";

// One page per command (docs/reference/<command>.md): its usage, endpoint and price, every option
// with its values and default, its arguments, its examples with their output on the sandbox, the
// fields of its records and the columns of its table views, its notes, and its subcommands. All of
// it read from the command's tables: the flag table, the module, the definition and the registry.

/** What each kind of flag value is, in a reader's words (a new kind fails the typecheck here). */
const KIND_WORDS: Record<FlagKind, string> = {
  switch: "",
  text: "text",
  list: "a comma-separated list; repeatable",
  optionalList: "a comma-separated list, or nothing",
  repeated: "repeatable; each one whole",
  choice: "",
  count: "a whole number, 1 or more",
  whole: "a whole number, 0 or more",
  duration: "a duration: 30s, 500ms, 2m, 1h, or seconds",
  optionalDuration: "nothing, or a duration: 10s, 2m",
  rate: "requests a minute: 90/min",
  url: "an http(s) URL",
  amount: "an amount in the asset's units: 0.01",
  share: "a share from 0 to 1",
  size: "a size: 64MB, 512KiB",
  ttl: "a time to live: 60s, 10m, 1h, 1w; 0 is off",
};

/** What each kind of record field holds. */
const FIELD_WORDS: Record<FieldKind, string> = {
  string: "text",
  decimal: "decimal string",
  numeric: "decimal string or number",
  int: "whole number",
  number: "number",
  bool: "true or false",
  url: "URL",
  numbers: "list of numbers",
};

/** The examples whose output a page shows, and a line's output (undefined: none to show). */
export type OutputOf = (line: string) => string | undefined;

function valueWords(flag: Flag): string {
  const parts: string[] = [];
  if (flag.choices) parts.push(`one of ${flag.choices.map(code).join(", ")}`);
  else if (KIND_WORDS[flag.kind]) parts.push(KIND_WORDS[flag.kind]);
  if (flag.max !== undefined) parts.push(`at most ${flag.max}${flag.kind === "text" ? " characters" : ""}`);
  if (flag.suggest) parts.push(`e.g. ${flag.suggest.map(code).join(", ")}`);
  if (flag.default !== undefined) parts.push(`default ${code(flag.default)}`);
  return parts.join("; ");
}

/** The options of a flag table, one row each (and one for each --no- spelling). */
export function optionRows(flags: FlagTable): string[][] {
  return Object.values(flags).flatMap((flag) => [
    [code(flag.flags), cell(valueWords(flag)), cell(flag.description)],
    ...(flag.negation ? [[code(flag.negation.flags), "", cell(flag.negation.description)]] : []),
  ]);
}

function heading(level: number, title: string): string {
  return `${"#".repeat(level)} ${title}`;
}

/** Where a data command's records come from and what a request costs. */
function endpointLine(doc: CommandDoc): string | undefined {
  const e = doc.endpoint;
  if (!e) return undefined;
  const newer = e.newerPath
    ? ` (the newer docs' path, with \`--api-paths newer\`: ${code(e.newerPath)})`
    : "";
  const paging =
    e.pageSize > 0
      ? `, up to ${e.pageSize} a page`
      : e.maxSelectorItems > 1 && Object.keys(e.selectors).length
        ? `, ${e.maxSelectorItems} tokens a request`
        : "";
  const chain = e.onlyOn ? ` ${e.onlyOn[0]!.toUpperCase()}${e.onlyOn.slice(1)} only.` : "";
  return `Endpoint: ${code(`${e.method} ${e.path}`)}${newer}${paging}.${chain} Price with \`--pay\` (x402, no API key): ${e.price} USDC a request ([payments](payments.md)).`;
}

function toolLine(doc: CommandDoc): string | undefined {
  const tool = doc.tool;
  if (!tool) return undefined;
  const args = [...tool.arguments].map(code).join(", ");
  return `MCP tool: ${code(tool.spec.name)}, taking ${args} ([AI agents](ai-agents.md)).`;
}

function optionsSection(doc: CommandDoc, level: number): string[] {
  const rows = optionRows(doc.module.flags);
  const globals = "Global options (every command): [configuration](configuration.md#global-options).";
  if (!rows.length) return [heading(level, "Options"), `No options of its own. ${globals}`];
  return [heading(level, "Options"), table(["option", "value", "what it does"], rows), globals];
}

function argumentsSection(doc: CommandDoc, level: number): string[] {
  const args = doc.module.args ?? [];
  if (!args.length) return [];
  const rows = args.map((a) => [
    code(a.name),
    cell(a.description + (a.values ? ` (${a.values.join(", ")})` : "")),
  ]);
  return [heading(level, "Arguments"), table(["argument", "what it is"], rows)];
}

/** Whether a page shows an example's output: a line on the sandbox tokenintel runs in-process, not a server, not a watch. */
export function showsOutput(line: string): boolean {
  const plan = inProcessPlan(line);
  return (
    plan?.words.includes("--sandbox") === true &&
    !["sandbox", "mcp"].includes(plan.words[0]!) &&
    !plan.words.some((w) => w === "--watch" || w === "-w")
  );
}

export const OUTPUT_CONDITIONS = `Outputs are read on the sandbox (\`--sandbox\`), as a terminal ${DOCS_COLUMNS} columns wide shows them, with the clock at ${new Date(DOCS_CLOCK).toISOString().slice(0, 16).replace("T", " ")} UTC.`;

function examplesSection(doc: CommandDoc, level: number, outputOf: OutputOf): string[] {
  const examples = doc.module.examples ?? [];
  if (!examples.length) return [];
  const shown = examples.filter((l) => outputOf(l) !== undefined);
  const others = examples.filter((l) => outputOf(l) === undefined);
  const watches = others.filter((l) => /\s(--watch|-w)\b/.test(l));
  return [
    heading(level, "Examples"),
    ...(shown.length ? [OUTPUT_CONDITIONS, ...shown.map((l) => consoleBlock(l, outputOf(l)!))] : []),
    ...(others.length ? [fence("sh", others.join("\n"))] : []),
    ...(watches.length ? ["A watch's output is not shown: its figures move while it runs."] : []),
  ];
}

function fieldRows(shape: Shape, prefix = ""): string[][] {
  return Object.entries(shape).flatMap(([key, spec]) => {
    if (typeof spec === "object") return fieldRows(spec, `${prefix}${key}.`);
    const leaf = spec as FieldSpec;
    const notes = [leaf.endsWith("?") ? "may be null" : "", isAbsentOk(leaf) ? "may be absent" : ""];
    return [
      [
        code(`${prefix}${key}`),
        FIELD_WORDS[leaf.replace(/[?~]$/, "") as FieldKind],
        notes.filter(Boolean).join(", "),
      ],
    ];
  });
}

function columnsOf(choice: ColumnChoice): string {
  return typeof choice === "function"
    ? "chosen from what the records carry"
    : choice.map((c) => c.header).join(", ");
}

function recordsSection(doc: CommandDoc, level: number): string[] {
  const d = doc.definition;
  if (!d) return [];
  const name = `tokenintel ${doc.path.join(" ")}`;
  const views = Object.entries(d.table.views).map(([view, layout]) => [
    code(view) + (view === d.table.defaultView ? " (default)" : ""),
    cell(columnsOf(layout.columns)),
    cell(columnsOf(layout.wide)),
  ]);
  return [
    heading(level, "Records"),
    `Each record's fields, as the service sends them (JSON keeps every value as sent; \`--fields\` keeps the dot paths named; ${code(`${name} --fields`)} lists them, sections included):`,
    table(["field", "kind", "notes"], fieldRows(d.shape)),
    heading(level, "Table views"),
    `The table's columns${Object.keys(d.table.views).length > 1 ? ", by `--view`" : ""}; \`--wide\` adds the last column's.`,
    table(["view", "columns", "--wide adds"], views),
  ];
}

/** The body of a command's section (its page, or a subcommand's part of it). */
function commandBody(doc: CommandDoc, level: number, outputOf: OutputOf): string[] {
  const usage = doc.cmd.createHelp().commandUsage(doc.cmd);
  return [
    text(doc.module.description),
    code(usage),
    ...[endpointLine(doc), toolLine(doc)].filter((l): l is string => l !== undefined),
    ...optionsSection(doc, level),
    ...argumentsSection(doc, level),
    ...examplesSection(doc, level, outputOf),
    ...recordsSection(doc, level),
    ...(doc.module.notes ? [heading(level, "Notes"), notes(doc.module.notes)] : []),
    ...doc.subcommands.flatMap((sub) => [
      heading(level, code(`tokenintel ${sub.path.join(" ")}`)),
      ...commandBody(sub, level + 1, outputOf),
    ]),
  ];
}

/** docs/reference/<command>.md; `extra` adds a topic's sections after the command's own. */
export function commandPage(doc: CommandDoc, outputOf: OutputOf, extra: string[] = []): string {
  return `${[GENERATED, `# tokenintel ${doc.path.join(" ")}`, ...commandBody(doc, 2, outputOf), ...extra, "[All commands](README.md)"].join("\n\n")}\n`;
}
