import type { Command, Option } from "commander";
import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { argumentValues, completionValues } from "../../flags/table.js";
import { SHELLS, type Shell } from "./shells.js";

// `tokenintel completion <bash|zsh|fish>`: scripts built from the program itself, so every command
// and flag is covered, with the fixed values the flag tables and arguments give (chains, formats,
// views, config keys, shells). Tickers come from the local token index: the scripts ask the hidden
// `tokenintel __complete tickers <prefix> [chain]`, which reads only that file, never the network.

interface CompletionFlag {
  names: string[];
  description: string;
  takesValue: boolean;
  /** Takes a value that may be left out (--fields alone lists the paths). */
  optionalValue: boolean;
  values?: readonly string[];
  /** Values read from the token index on Tab ("tickers"). */
  dynamic?: "tickers" | "paths";
}

interface CompletionArg {
  name: string;
  values?: readonly string[];
}

interface CompletionNode {
  name: string;
  description: string;
  flags: CompletionFlag[];
  args: CompletionArg[];
  subcommands: CompletionNode[];
}

/** Flags whose values are tickers from the token index. */
const DYNAMIC: Record<string, CompletionFlag["dynamic"]> = {
  "--tickers": "tickers",
  // Dot paths of the command's records (the spec knows them): --where completes the path part.
  "--sort": "paths",
  "--fields": "paths",
  "--columns": "paths",
  "--where": "paths",
};

function flagsOf(cmd: Command): CompletionFlag[] {
  return cmd.options.map((o: Option) => ({
    names: [o.short, o.long].filter((n): n is string => Boolean(n)),
    description: o.description,
    takesValue: o.required,
    optionalValue: o.optional,
    values: completionValues(o),
    dynamic: o.long ? DYNAMIC[o.long] : undefined,
  }));
}

function nodeOf(cmd: Command): CompletionNode {
  return {
    name: cmd.name(),
    description: cmd.description(),
    flags: flagsOf(cmd),
    args: cmd.registeredArguments.map((a) => ({ name: a.name(), values: argumentValues(a) })),
    // What help lists: hidden commands (__complete) left out, and help's own.
    subcommands: cmd
      .createHelp()
      .visibleCommands(cmd)
      .filter((c) => c.name() !== "help")
      .map(nodeOf),
  };
}

export async function runCompletion(ctx: RunContext, shell: string, program: Command): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`completion: unknown shell "${shell}" (expected ${SHELLS.join(", ")})`);
  }
  const spec = nodeOf(program);
  const render: Record<Shell, (s: CompletionNode) => string> = { bash, zsh, fish };
  await ctx.io.out(render[shell as Shell](spec));
}

/** A POSIX shell single-quoted word (fish reads it the same way). */
const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Every command and subcommand with the path that leads to it. */
function walk(spec: CompletionNode): Array<{ path: string[]; spec: CompletionNode }> {
  return spec.subcommands.flatMap((c) => [
    { path: [c.name], spec: c },
    ...c.subcommands.map((s) => ({ path: [c.name, s.name], spec: s })),
  ]);
}

/** `case $nargs in 0) pos=...;; esac` for the arguments that have fixed values. */
function bashArgs(s: CompletionNode, indent: string): string {
  const cases = s.args
    .map((a, i) => (a.values ? `${i}) pos=${q(a.values.join(" "))} ;;` : ""))
    .filter(Boolean);
  return cases.length ? `\n${indent}case "$nargs" in ${cases.join(" ")} esac` : "";
}

function bash(spec: CompletionNode): string {
  const globals = spec.flags.flatMap((f) => f.names);
  const every = [spec, ...walk(spec).map((w) => w.spec)];
  // A flag's values, per command: one spelling (--view) can take different values in different
  // commands (market's views, ta's), so where they differ the case looks at the command too.
  const byFlag = new Map<string, Array<{ cmd: string; reply: string }>>();
  for (const { path, spec: s } of [{ path: [] as string[], spec }, ...walk(spec)]) {
    for (const f of s.flags) {
      if (!f.values && !f.dynamic) continue;
      const key = f.names.join("|");
      const reply = f.dynamic
        ? `_tokenintel_dynamic ${f.dynamic} "$cur" "$chain" "$src" "$cmd"`
        : `COMPREPLY=( $(compgen -W ${q(f.values!.join(" "))} -- "$cur") )`;
      const cmd = path[0] ?? "";
      const entries = byFlag.get(key) ?? [];
      if (!entries.some((e) => e.cmd === cmd)) entries.push({ cmd, reply });
      byFlag.set(key, entries);
    }
  }
  const valueCases = [...byFlag].map(([key, entries]) => {
    if (new Set(entries.map((e) => e.reply)).size === 1) return `    ${key}) ${entries[0]!.reply}; return ;;`;
    const perCommand = entries.map((e) => `${e.cmd ? q(e.cmd) : '""'}) ${e.reply} ;;`).join(" ");
    return `    ${key}) case "$cmd" in ${perCommand} esac; return ;;`;
  });
  const takesValue = [
    ...new Set(every.flatMap((s) => s.flags.filter((f) => f.takesValue).flatMap((f) => f.names))),
  ];
  const withSubs = spec.subcommands.filter((c) => c.subcommands.length).map((c) => c.name);
  const flagWords = (s: CompletionNode) => q([...s.flags.flatMap((f) => f.names), ...globals].join(" "));
  const commandCases = spec.subcommands.map((c) => {
    if (!c.subcommands.length) return `    ${c.name}) flags=${flagWords(c)}${bashArgs(c, "      ")} ;;`;
    const subs = c.subcommands
      .map((s) => `        ${s.name}) flags=${flagWords(s)}${bashArgs(s, "          ")} ;;`)
      .join("\n");
    return [
      `    ${c.name})`,
      '      case "$sub" in',
      `        "") flags=${flagWords(c)}; pos=${q(c.subcommands.map((s) => s.name).join(" "))} ;;`,
      subs,
      "      esac ;;",
    ].join("\n");
  });
  const lines = [
    "# bash completion for tokenintel; load with: source <(tokenintel completion bash)",
    "",
    "# Tickers from the local token index (tokenintel directory --sync): the last item of a",
    "# comma-separated list, asked of `tokenintel __complete`, which reads that file and nothing else.",
    "_tokenintel_dynamic() {",
    '  local head="" last="$2" out c re=\'^(.*[^\\\\],)(.*)$\'',
    '  if [[ "$2" =~ $re ]]; then head="${BASH_REMATCH[1]}"; last="${BASH_REMATCH[2]}"; fi',
    '  out=$("${COMP_WORDS[0]:-tokenintel}" __complete "$1" "$last" "$3" "$4" "$5" 2>/dev/null) || return 0',
    "  local IFS=$'\\n'",
    '  for c in $out; do COMPREPLY+=( "$head$(printf \'%q\' "$c")" ); done',
    "  # An item of a list, or a dot path that goes on: no space after it, so that a comma and the",
    "  # next item, or the rest of the path, can follow.",
    "  compopt -o nospace 2>/dev/null",
    "}",
    "",
    "_tokenintel() {",
    '  local cur prev w i cmd="" sub="" chain="" src="" nargs=0 flags="" pos="" words',
    "  COMPREPLY=()",
    '  cur="${COMP_WORDS[COMP_CWORD]}"',
    '  prev="${COMP_WORDS[COMP_CWORD-1]}"',
    "  # The words before the cursor: options (and the values of those that take one), the command,",
    "  # its subcommand, then positional arguments.",
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    '    w="${COMP_WORDS[i]}"',
    '    case "$w" in',
    '      -c|--chain) chain="${COMP_WORDS[i+1]}"; ((i++)); continue ;;',
    '      --chain=*) chain="${w#--chain=}"; continue ;;',
    "      # --sandbox: tickers from the sandbox's index (directory --sandbox --sync), not the live one.",
    "      --sandbox) src=sandbox; continue ;;",
    `      ${takesValue.filter((n) => n !== "-c" && n !== "--chain").join("|")}) ((i++)); continue ;;`,
    "      -*) continue ;;",
    "    esac",
    '    if [[ -z "$cmd" ]]; then cmd="$w"',
    `    elif [[ -z "$sub" && " ${withSubs.join(" ")} " == *" $cmd "* ]]; then sub="$w"`,
    "    else ((nargs++)); fi",
    "  done",
    '  case "$prev" in',
    ...valueCases,
    `    ${takesValue.join("|")}) return ;;`,
    "  esac",
    '  case "$cmd" in',
    `    "") flags=${q(globals.join(" "))}; pos=${q([...spec.subcommands.map((c) => c.name), "help"].join(" "))} ;;`,
    `    help) pos=${q(spec.subcommands.map((c) => c.name).join(" "))} ;;`,
    ...commandCases,
    "  esac",
    "  # A word that starts with - is an option; otherwise a subcommand or a value, when there are any.",
    '  if [[ "$cur" != -* && -n "$pos" ]]; then words="$pos"; else words="$flags"; fi',
    '  COMPREPLY=( $(compgen -W "$words" -- "$cur") )',
    "}",
    "complete -o default -F _tokenintel tokenintel",
  ];
  return `${lines.join("\n")}\n`;
}

/** Text inside a single-quoted zsh word: ' closes and reopens the quote. */
const zq = (s: string) => s.replace(/'/g, "'\\''");

/** An _arguments description ("[...]"): brackets and backslashes escaped, colons kept. */
const zshExplanation = (s: string) => zq(s.replace(/[\\[\]]/g, "\\$&"));

/** A _describe item: "name:description", a colon in the name escaped, the description as it is. */
const zshItem = (name: string, description: string) =>
  `'${zq(name.replace(/:/g, "\\:"))}:${zq(description)}'`;

function zshFlag(f: CompletionFlag, command = ""): string {
  const desc = zshExplanation(f.description);
  const colon = f.optionalValue ? "::" : ":";
  const value =
    !f.takesValue && !(f.optionalValue && f.dynamic)
      ? ""
      : f.dynamic
        ? `${colon}${f.dynamic}:_tokenintel_${f.dynamic}${f.dynamic === "paths" ? ` ${command}` : ""}`
        : f.values
          ? `:value:(${f.values.map((v) => zq(v)).join(" ")})`
          : ":value: ";
  if (f.names.length === 2) return `'(${f.names.join(" ")})'{${f.names.join(",")}}'[${desc}]${value}'`;
  return `'${f.names[0]}[${desc}]${value}'`;
}

function zshArgs(s: CompletionNode): string {
  if (!s.args.length) return "";
  return s.args
    .map((a, i) => {
      const name = a.name.replace(/:/g, "");
      return a.values ? `'${i + 1}:${name}:(${a.values.join(" ")})'` : `'${i + 1}:${name}: '`;
    })
    .join(" ");
}

function zshCommand(c: CompletionNode, indent: string): string {
  const flags = c.flags.map((f) => zshFlag(f, c.name)).join(" ");
  const args = zshArgs(c);
  if (!c.subcommands.length) {
    const parts = [flags, args].filter(Boolean).join(" ");
    return `${indent}${c.name})\n${indent}  _arguments ${parts || "'*::arg:_default'"} ;;`;
  }
  const items = c.subcommands.map((s) => zshItem(s.name, s.description)).join(" ");
  const inner = c.subcommands.map((s) => zshCommand(s, `${indent}        `)).join("\n");
  return [
    `${indent}${c.name})`,
    `${indent}  local -a subcommands; subcommands=(${items})`,
    `${indent}  _arguments -C ${flags ? `${flags} ` : ""}'1: :->sub' '*::arg:->subargs'`,
    `${indent}  case $state in`,
    `${indent}    sub) _describe -t subcommands '${c.name} subcommand' subcommands ;;`,
    `${indent}    subargs)`,
    `${indent}      case $words[1] in`,
    inner,
    `${indent}      esac ;;`,
    `${indent}  esac ;;`,
  ].join("\n");
}

function zsh(spec: CompletionNode): string {
  const globals = spec.flags.map((f) => zshFlag(f)).join(" \\\n    ");
  const commands = spec.subcommands.map((c) => zshItem(c.name, c.description)).join("\n    ");
  const cases = spec.subcommands.map((c) => zshCommand(c, "      ")).join("\n");
  return `#compdef tokenintel
# zsh completion for tokenintel; load with: source <(tokenintel completion zsh)

# Tickers from the local token index (tokenintel directory --sync), for the last item of a
# comma-separated list: \`tokenintel __complete\` reads that file and nothing else.
_tokenintel_tickers() {
  local chain="" src="" i
  for ((i = 1; i < CURRENT; i++)); do
    case "\${words[i]}" in
      -c|--chain) chain="\${words[i+1]}" ;;
      --chain=*) chain="\${words[i]#--chain=}" ;;
      --sandbox) src=sandbox ;;
    esac
  done
  compset -P '*[^\\\\],'
  local -a tickers
  tickers=(\${(f)"$(\${_tokenintel_program:-tokenintel} __complete tickers "$PREFIX" "$chain" "$src" 2>/dev/null)"})
  compadd -- $tickers
}

# Dot paths of a command's records (for --sort, --fields, --columns, --where), one level at a time:
# a section ends in a dot, with no space after it, so that the path can go on.
_tokenintel_paths() {
  compset -P '*[^\\\\],'
  local -a paths
  paths=(\${(f)"$(\${_tokenintel_program:-tokenintel} __complete paths "$PREFIX" "" "" "$1" 2>/dev/null)"})
  compadd -S '' -- $paths
}

_tokenintel() {
  local _tokenintel_program=\${words[1]} curcontext="$curcontext" state line
  local -a commands
  commands=(
    ${commands}
  )
  _arguments -C \\
    ${globals} \\
    '1: :->command' \\
    '*::arg:->args'
  case $state in
    command) _describe -t commands 'command' commands ;;
    args)
      case $words[1] in
${cases}
      esac ;;
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _tokenintel "$@"; else compdef _tokenintel tokenintel; fi
`;
}

function fish(spec: CompletionNode): string {
  const lines = [
    "# fish completion for tokenintel; load with: tokenintel completion fish | source",
    "complete -c tokenintel -f",
    "",
    "# Tickers from the local token index (tokenintel directory --sync), for the last item of a",
    "# comma-separated list: `tokenintel __complete` reads that file and nothing else.",
    "function __tokenintel_tickers",
    "    set -l words (commandline -opc)",
    "    set -l chain ''",
    "    set -l src ''",
    "    for i in (seq (count $words))",
    "        switch $words[$i]",
    "            case -c --chain",
    "                if test $i -lt (count $words)",
    "                    set chain $words[(math $i + 1)]",
    "                end",
    "            case '--chain=*'",
    "                set chain (string replace -- --chain= '' $words[$i])",
    "            case --sandbox",
    "                set src sandbox",
    "        end",
    "    end",
    "    set -l cur (commandline -ct)",
    "    set -l head (string replace -r -- '^((?:.*[^\\\\\\\\])?,)?.*$' '$1' $cur)",
    "    set -l last (string replace -r -- '^(.*[^\\\\\\\\],)' '' $cur)",
    '    for t in (tokenintel __complete tickers "$last" "$chain" "$src" 2>/dev/null)',
    '        echo "$head$t"',
    "    end",
    "end",
    "",
    "# Dot paths of a command's records (--sort, --fields, --columns, --where), one level at a time.",
    "function __tokenintel_paths",
    "    set -l cur (commandline -ct)",
    "    set -l head (string replace -r -- '^((?:.*[^\\\\\\\\])?,)?.*$' '$1' $cur)",
    "    set -l last (string replace -r -- '^(.*[^\\\\\\\\],)' '' $cur)",
    '    for p in (tokenintel __complete paths "$last" "" "" $argv[1] 2>/dev/null)',
    '        echo "$head$p"',
    "    end",
    "end",
    "",
  ];
  const names = spec.subcommands.map((c) => c.name).join(" ");
  const flagLine = (f: CompletionFlag, condition: string, command = "") => {
    const parts = ["complete -c tokenintel", condition].filter(Boolean);
    for (const n of f.names) parts.push(n.startsWith("--") ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`);
    if (f.takesValue || (f.optionalValue && f.dynamic)) {
      if (f.dynamic)
        parts.push(`-x -a '(__tokenintel_${f.dynamic}${f.dynamic === "paths" ? ` ${command}` : ""})'`);
      else parts.push(f.values ? `-x -a ${q(f.values.join(" "))}` : "-r");
    }
    parts.push(`-d ${q(f.description)}`);
    return parts.join(" ");
  };
  const argLines = (s: CompletionNode, condition: string) =>
    s.args
      .filter((a) => a.values)
      .map((a) => `complete -c tokenintel ${condition} -a ${q(a.values!.join(" "))} -d ${q(a.name)}`);
  for (const f of spec.flags) lines.push(flagLine(f, ""));
  for (const c of spec.subcommands) {
    lines.push(
      `complete -c tokenintel -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${q(c.description)}`,
    );
    const inC = `-n "__fish_seen_subcommand_from ${c.name}"`;
    for (const f of c.flags) lines.push(flagLine(f, inC, c.name));
    if (!c.subcommands.length) lines.push(...argLines(c, inC));
    const subNames = c.subcommands.map((s) => s.name).join(" ");
    for (const s of c.subcommands) {
      lines.push(
        `complete -c tokenintel -n "__fish_seen_subcommand_from ${c.name}; and not __fish_seen_subcommand_from ${subNames}" -a ${s.name} -d ${q(s.description)}`,
      );
      const inS = `-n "__fish_seen_subcommand_from ${c.name}; and __fish_seen_subcommand_from ${s.name}"`;
      for (const f of s.flags) lines.push(flagLine(f, inS));
      lines.push(...argLines(s, inS));
    }
  }
  return `${lines.join("\n")}\n`;
}
