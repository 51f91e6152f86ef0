import type { Command, Help, Option } from "commander";
import type { CommandModule } from "../src/commands/command.js";
import { EXIT_MEANINGS, ExitCode } from "../src/errors.js";
import { settingEnvironment } from "../src/flags/settings-table.js";
import { preformatted, reflow } from "../src/help/notes.js";
import { COMMANDS, fullProgram } from "../src/program.js";

// dist/tokenintel.1, written by the build from the program itself: every command and subcommand,
// its usage, arguments, flags and their help as commander prints them, and the examples and notes
// of its command module. Nothing here is written by hand but the sections a man page has that the
// definitions do not (exit status, environment, files).

/** A command's examples and notes, found by its path of names ("auth", "login"). */
export type ModuleAt = (path: string[]) => CommandModule | undefined;

/**
 * Text made safe for roff: backslashes and hyphens escaped, no line read as a request, an ellipsis
 * spelt with dots (groff has no glyph for it on an ASCII terminal, and warns).
 */
export function roff(text: string): string {
  return text
    .replace(/\\/g, "\\e")
    .replace(/-/g, "\\-")
    .replace(/\u2026/g, "...")
    .split("\n")
    .map((line) => line.trim())
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join("\n");
}

const bold = (text: string) => `\\fB${roff(text)}\\fR`;

/** A line of a no-fill block: escaped like roff(), its indentation and columns kept. */
const literal = (line: string) => roff(line.trim()).replace(/^/, line.match(/^\s*/)![0]).replace(/^\s*$/, "");

/**
 * A command's notes: each paragraph filled by man at the reader's width, and each run of lines laid
 * out by hand (a table of rules or settings, an indented command or JSON) in a no-fill block, so
 * that it keeps one row a line and its columns.
 */
export function notesSection(notes: string): string[] {
  const lines: string[] = [];
  let block: "text" | "literal" | undefined;
  for (const line of reflow(notes).split("\n")) {
    if (line === "") {
      if (block === "literal") lines.push(".fi");
      block = undefined;
      continue;
    }
    const kind = preformatted(line) ? "literal" : "text";
    if (kind !== block) {
      if (block === "literal") lines.push(".fi");
      lines.push(".PP");
      if (kind === "literal") lines.push(".nf");
      block = kind;
    }
    lines.push(kind === "literal" ? literal(line) : roff(line));
  }
  if (block === "literal") lines.push(".fi");
  return lines;
}

/** "-c, --chain <chain>" in bold with its value in italics. */
function term(text: string): string {
  return roff(text)
    .replace(/([<[][^>\]]*[>\]])/g, "\\fI$1\\fB")
    .replace(/^/, "\\fB")
    .concat("\\fR");
}

function options(help: Help, list: readonly Option[]): string[] {
  return list
    .filter((o) => o.long !== "--help")
    .flatMap((o) => [".TP", term(help.optionTerm(o)), roff(help.optionDescription(o))]);
}

/** The environment a run reads: the settings' variables and the others (the man page, docs/reference). */
export const ENVIRONMENT: Array<[string, string]> = [
  ["TOKENINTEL_API_KEY", "API key"],
  ...settingEnvironment(),
  ["TOKENINTEL_WALLET_KEY", "wallet private key for --pay (x402); never stored, never printed"],
  ["TOKENINTEL_CONFIG_DIR", "where the config store lives (default ~/.config/tokenintel)"],
  ["TOKENINTEL_CACHE_DIR", "where cached answers and the token index live (default ~/.cache/tokenintel)"],
  [
    "TOKENINTEL_DATA_DIR",
    "where the payment ledgers and the MCP server's bearer tokens live (default ~/.local/share/tokenintel)",
  ],
  [
    "TOKENINTEL_PAGER, PAGER",
    "the pager for long tables on a terminal (default less -FRX; empty or cat: none)",
  ],
  ["TOKENINTEL_FORCE_TTY", "1: behave as on a terminal even when stdout is a pipe"],
  ["NO_COLOR, FORCE_COLOR", "colour off, colour on"],
];

/** The files tokenintel keeps (the man page, docs/reference). */
export const FILES: Array<[string, string]> = [
  [
    "~/.config/tokenintel/config.json",
    "the config store (settings and the API key), mode 0600 in a folder of mode 0700; $TOKENINTEL_CONFIG_DIR/config.json when set. `tokenintel config path` prints it.",
  ],
  [
    "~/.local/share/tokenintel/payments.jsonl",
    "the payment ledger: every x402 authorization signed, written before it is sent, then its outcome; mode 0600; $TOKENINTEL_DATA_DIR/payments.jsonl when set. `tokenintel payments` shows it.",
  ],
  [
    "~/.local/share/tokenintel/payments-sandbox.jsonl",
    "the ledger of runs with --sandbox, apart from the real one. `tokenintel payments --sandbox` shows it.",
  ],
  [
    "~/.local/share/tokenintel/mcp-tokens.json",
    "the bearer tokens of the MCP server over HTTP (mcp --http): names, caps and dates, and a hash of each token, never the token; mode 0600. `tokenintel mcp tokens list` shows them.",
  ],
];

function commandSection(help: Help, cmd: Command, path: string[], moduleAt: ModuleAt): string[] {
  const module = moduleAt(path);
  const lines = [
    `.SS "${roff(`tokenintel ${path.join(" ")}`)}"`,
    bold(help.commandUsage(cmd)),
    ".PP",
    roff(help.commandDescription(cmd)),
  ];
  const args = help.visibleArguments(cmd);
  if (args.length) {
    lines.push(".PP", "Arguments:");
    for (const a of args)
      lines.push(".TP", `\\fI${roff(help.argumentTerm(a))}\\fR`, roff(help.argumentDescription(a)));
  }
  const opts = options(help, help.visibleOptions(cmd));
  if (opts.length) lines.push(".PP", "Options:", ...opts);
  if (module?.examples?.length) {
    lines.push(
      ".PP",
      "Examples:",
      ".PP",
      ".RS 4",
      ".nf",
      ...module.examples.map((e) => roff(`$ ${e}`)),
      ".fi",
      ".RE",
    );
  }
  if (module?.notes) lines.push(...notesSection(module.notes));
  for (const sub of help.visibleCommands(cmd).filter((c) => c.name() !== "help")) {
    lines.push(...commandSection(help, sub, [...path, sub.name()], moduleAt));
  }
  return lines;
}

/** The man page (man(7) macros) of a program built in full. */
export function renderManPage(program: Command, version: string, moduleAt: ModuleAt): string {
  const help = program.createHelp();
  const description = help.commandDescription(program);
  const commands = help.visibleCommands(program).filter((c) => c.name() !== "help");
  const lines = [
    `.\\" Generated by scripts/build.mjs from the command definitions; do not edit.`,
    `.TH TOKENINTEL 1 "" "tokenintel ${roff(version)}" "User Commands"`,
    ".SH NAME",
    `tokenintel \\- ${roff(description.split(":")[0]!.toLowerCase())}`,
    ".SH SYNOPSIS",
    `\\fBtokenintel\\fR [\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]`,
    ".SH DESCRIPTION",
    roff(description),
    ".PP",
    "Tables on a terminal, JSON when piped. Data goes to standard output; progress, warnings and errors",
    "go to standard error. Every command takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR.",
    ".SH GLOBAL OPTIONS",
    "Accepted anywhere on the command line.",
    ...options(help, help.visibleOptions(program)),
    ".SH COMMANDS",
    ...commands.flatMap((c) => commandSection(help, c, [c.name()], moduleAt)),
    ".SH EXIT STATUS",
    ...Object.entries(ExitCode).flatMap(([name, code]) => [
      ".TP",
      bold(String(code)),
      roff(EXIT_MEANINGS[name as keyof typeof ExitCode]),
    ]),
    ".SH ENVIRONMENT",
    "Precedence: flag, then environment, then the config store.",
    ...ENVIRONMENT.flatMap(([name, meaning]) => [".TP", bold(name), roff(meaning)]),
    ".SH FILES",
    ...FILES.flatMap(([name, meaning]) => [".TP", bold(name), roff(meaning)]),
    ".SH SEE ALSO",
    roff("tokenintel version --verbose (for bug reports); THIRD_PARTY_NOTICES in the package's dist folder."),
  ];
  return `${lines.join("\n")}\n`;
}

/** The man page of tokenintel: the program with every command defined, and their modules. */
export async function manPage(version: string): Promise<string> {
  const modules = new Map(
    await Promise.all(
      Object.entries(COMMANDS).map(async ([name, load]) => [name, (await load()).default] as const),
    ),
  );
  const moduleAt: ModuleAt = ([first, ...rest]) =>
    rest.reduce<CommandModule | undefined>(
      (module, name) => module?.subcommands?.find((s) => s.name === name),
      modules.get(first ?? ""),
    );
  return renderManPage(await fullProgram(), version, moduleAt);
}
