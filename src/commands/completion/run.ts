import type { Command, Option } from "commander";
import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { completionValues } from "../../flags/table.js";
import { SHELLS, type Shell } from "./shells.js";

// `tokenintel completion <bash|zsh|fish>`: scripts built from the program itself, so every command
// and flag is covered, with the fixed values the flag tables give (chains, formats, views...).

interface Spec {
  name: string;
  description: string;
  flags: Array<{ names: string[]; description: string; takesValue: boolean; values?: readonly string[] }>;
  subcommands: Spec[];
}

function flagsOf(cmd: Command): Spec["flags"] {
  return cmd.options.map((o: Option) => ({
    names: [o.short, o.long].filter((n): n is string => Boolean(n)),
    description: o.description,
    takesValue: o.required,
    values: completionValues(o),
  }));
}

function specOf(cmd: Command): Spec {
  return {
    name: cmd.name(),
    description: cmd.description(),
    flags: flagsOf(cmd),
    subcommands: cmd.commands.map(specOf),
  };
}

export async function runCompletion(ctx: RunContext, shell: string, program: Command): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`completion: unknown shell "${shell}" (expected ${SHELLS.join(", ")})`);
  }
  const spec = specOf(program);
  const render: Record<Shell, (s: Spec) => string> = { bash, zsh, fish };
  await ctx.io.out(render[shell as Shell](spec));
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

function bash(spec: Spec): string {
  const lines: string[] = [];
  const globals = spec.flags.flatMap((f) => f.names);
  const valueCases: string[] = [];
  const all = [spec, ...spec.subcommands, ...spec.subcommands.flatMap((c) => c.subcommands)];
  const seen = new Set<string>();
  for (const s of all) {
    for (const f of s.flags) {
      if (!f.values || seen.has(f.names.join("|"))) continue;
      seen.add(f.names.join("|"));
      valueCases.push(
        `    ${f.names.join("|")}) COMPREPLY=( $(compgen -W ${q(f.values.join(" "))} -- "$cur") ); return ;;`,
      );
    }
  }
  const commandCases = spec.subcommands.map((c) => {
    const words = [...c.flags.flatMap((f) => f.names), ...c.subcommands.map((s) => s.name), ...globals];
    const subs = c.subcommands
      .map(
        (s) => `        ${s.name}) words=${q([...s.flags.flatMap((f) => f.names), ...globals].join(" "))} ;;`,
      )
      .join("\n");
    return subs
      ? `    ${c.name})\n      words=${q(words.join(" "))}\n      case "$sub" in\n${subs}\n      esac ;;`
      : `    ${c.name}) words=${q(words.join(" "))} ;;`;
  });
  const takesValue = all.flatMap((s) => s.flags.filter((f) => f.takesValue).flatMap((f) => f.names));
  lines.push(
    "# bash completion for tokenintel; load with: source <(tokenintel completion bash)",
    "_tokenintel() {",
    '  local cur prev cmd="" sub="" i words',
    '  cur="${COMP_WORDS[COMP_CWORD]}"',
    '  prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  case "$prev" in',
    ...valueCases,
    `    ${[...new Set(takesValue)].join("|")}) return ;;`,
    "  esac",
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    '    case "${COMP_WORDS[i]}" in',
    "      -*) ;;",
    '      *) if [[ -z "$cmd" ]]; then cmd="${COMP_WORDS[i]}"; elif [[ -z "$sub" ]]; then sub="${COMP_WORDS[i]}"; fi ;;',
    "    esac",
    "  done",
    `  words=${q([...spec.subcommands.map((c) => c.name), ...globals].join(" "))}`,
    '  case "$cmd" in',
    ...commandCases,
    "  esac",
    '  COMPREPLY=( $(compgen -W "$words" -- "$cur") )',
    "}",
    "complete -o default -F _tokenintel tokenintel",
  );
  return `${lines.join("\n")}\n`;
}

function zshFlag(f: Spec["flags"][number]): string {
  const desc = f.description.replace(/[[\]:']/g, " ").slice(0, 70);
  const value = f.takesValue ? (f.values ? `:value:(${f.values.join(" ")})` : ":value:") : "";
  if (f.names.length === 2) return `'(${f.names.join(" ")})'{${f.names.join(",")}}'[${desc}]${value}'`;
  return `'${f.names[0]}[${desc}]${value}'`;
}

function zsh(spec: Spec): string {
  const globals = spec.flags.map(zshFlag).join(" \\\n    ");
  const cases = spec.subcommands
    .map((c) => {
      const flags = c.flags.map(zshFlag).join(" \\\n          ");
      if (c.subcommands.length) {
        const subs = c.subcommands.map((s) => `'${s.name}:${s.description.replace(/'/g, "")}'`).join(" ");
        return `      ${c.name})\n        _arguments -C ${flags ? `${flags} ` : ""}'1: :((${subs}))' '*::arg:->rest' ;;`;
      }
      return `      ${c.name})\n        _arguments ${flags || "'*::arg:_default'"} '*::arg:_default' ;;`;
    })
    .join("\n");
  const commands = spec.subcommands
    .map((c) => `'${c.name}:${c.description.replace(/['[\]:]/g, " ")}'`)
    .join(" \\\n      ");
  return `#compdef tokenintel
# zsh completion for tokenintel; load with: source <(tokenintel completion zsh)
_tokenintel() {
  local -a commands
  commands=(
      ${commands}
  )
  _arguments -C \\
    ${globals} \\
    '1: :->command' \\
    '*::arg:->args'
  case $state in
    command) _describe 'command' commands ;;
    args)
      case $words[1] in
${cases}
      esac ;;
  esac
}
compdef _tokenintel tokenintel
`;
}

function fish(spec: Spec): string {
  const lines = [
    "# fish completion for tokenintel; load with: tokenintel completion fish | source",
    "complete -c tokenintel -f",
  ];
  const names = spec.subcommands.map((c) => c.name).join(" ");
  const flagLine = (f: Spec["flags"][number], condition: string) => {
    const parts = ["complete -c tokenintel", condition];
    for (const n of f.names) parts.push(n.startsWith("--") ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`);
    if (f.takesValue) parts.push(f.values ? `-x -a ${q(f.values.join(" "))}` : "-r");
    parts.push(`-d ${q(f.description.slice(0, 80))}`);
    return parts.join(" ");
  };
  for (const f of spec.flags) lines.push(flagLine(f, ""));
  for (const c of spec.subcommands) {
    lines.push(
      `complete -c tokenintel -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${q(c.description.slice(0, 80))}`,
    );
    for (const f of c.flags) lines.push(flagLine(f, `-n "__fish_seen_subcommand_from ${c.name}"`));
    for (const s of c.subcommands) {
      lines.push(
        `complete -c tokenintel -n "__fish_seen_subcommand_from ${c.name}" -a ${s.name} -d ${q(s.description.slice(0, 80))}`,
      );
      for (const f of s.flags) lines.push(flagLine(f, `-n "__fish_seen_subcommand_from ${s.name}"`));
    }
  }
  return `${lines.join("\n")}\n`;
}
