import { type CompletionNode, q } from "./tree.js";

// The bash script: one function that reads the words before the cursor and completes the flags,
// values, subcommands and arguments of the command it found.

/** Every command and subcommand with the path that leads to it. */
function walk(program: CompletionNode): Array<{ path: string[]; node: CompletionNode }> {
  return program.subcommands.flatMap((command) => [
    { path: [command.name], node: command },
    ...command.subcommands.map((subcommand) => ({ path: [command.name, subcommand.name], node: subcommand })),
  ]);
}

/** `case $nargs in 0) pos=...;; esac` for the arguments that have fixed values. */
function bashArgs(node: CompletionNode, indent: string): string {
  const cases = node.args
    .map((argument, position) =>
      argument.values ? `${position}) pos=${q(argument.values.join(" "))} ;;` : "",
    )
    .filter(Boolean);
  return cases.length ? `\n${indent}case "$nargs" in ${cases.join(" ")} esac` : "";
}

/** The values a flag completes to, per command: `--view) case "$cmd" in ... esac; return ;;`. */
function valueCases(program: CompletionNode): string[] {
  // One spelling (--view) can take different values in different commands (market's views, ta's),
  // so where they differ the case looks at the command too.
  const byFlag = new Map<string, Array<{ cmd: string; reply: string }>>();
  for (const { path, node } of [{ path: [] as string[], node: program }, ...walk(program)]) {
    for (const flag of node.flags) {
      if (!flag.values && !flag.dynamic) continue;
      const key = flag.names.join("|");
      const reply = flag.dynamic
        ? `_tokenintel_dynamic ${flag.dynamic} "$cur" "$chain" "$src" "$cmd"`
        : `COMPREPLY=( $(compgen -W ${q(flag.values!.join(" "))} -- "$cur") )`;
      const cmd = path[0] ?? "";
      const entries = byFlag.get(key) ?? [];
      if (!entries.some((e) => e.cmd === cmd)) entries.push({ cmd, reply });
      byFlag.set(key, entries);
    }
  }
  return [...byFlag].map(([key, entries]) => {
    if (new Set(entries.map((e) => e.reply)).size === 1) return `    ${key}) ${entries[0]!.reply}; return ;;`;
    const perCommand = entries.map((e) => `${e.cmd ? q(e.cmd) : '""'}) ${e.reply} ;;`).join(" ");
    return `    ${key}) case "$cmd" in ${perCommand} esac; return ;;`;
  });
}

/** Each command's flags and positional words: `market) flags=...;;`, a nested case for subcommands. */
function commandCases(program: CompletionNode, globals: string[]): string[] {
  const flagWords = (node: CompletionNode) =>
    q([...node.flags.flatMap((f) => f.names), ...globals].join(" "));
  return program.subcommands.map((command) => {
    if (!command.subcommands.length)
      return `    ${command.name}) flags=${flagWords(command)}${bashArgs(command, "      ")} ;;`;
    const subs = command.subcommands
      .map(
        (subcommand) =>
          `        ${subcommand.name}) flags=${flagWords(subcommand)}${bashArgs(subcommand, "          ")} ;;`,
      )
      .join("\n");
    return [
      `    ${command.name})`,
      '      case "$sub" in',
      `        "") flags=${flagWords(command)}; pos=${q(command.subcommands.map((subcommand) => subcommand.name).join(" "))} ;;`,
      subs,
      "      esac ;;",
    ].join("\n");
  });
}

/** Every flag that takes a value, in any command. */
function flagsTakingValues(program: CompletionNode): string[] {
  const every = [program, ...walk(program).map((entry) => entry.node)];
  return [
    ...new Set(every.flatMap((node) => node.flags.filter((f) => f.takesValue).flatMap((f) => f.names))),
  ];
}

/** The script's head: how to load it, and the function that asks `tokenintel __complete`. */
const PREAMBLE = [
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
];

export function bash(program: CompletionNode): string {
  const globals = program.flags.flatMap((f) => f.names);
  const takesValue = flagsTakingValues(program);
  const withSubs = program.subcommands
    .filter((command) => command.subcommands.length)
    .map((command) => command.name);
  const lines = [
    ...PREAMBLE,
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
    `      ${takesValue.filter((name) => name !== "-c" && name !== "--chain").join("|")}) ((i++)); continue ;;`,
    "      -*) continue ;;",
    "    esac",
    '    if [[ -z "$cmd" ]]; then cmd="$w"',
    `    elif [[ -z "$sub" && " ${withSubs.join(" ")} " == *" $cmd "* ]]; then sub="$w"`,
    "    else ((nargs++)); fi",
    "  done",
    '  case "$prev" in',
    ...valueCases(program),
    `    ${takesValue.join("|")}) return ;;`,
    "  esac",
    '  case "$cmd" in',
    `    "") flags=${q(globals.join(" "))}; pos=${q([...program.subcommands.map((command) => command.name), "help"].join(" "))} ;;`,
    `    help) pos=${q(program.subcommands.map((command) => command.name).join(" "))} ;;`,
    ...commandCases(program, globals),
    "  esac",
    "  # A word that starts with - is an option; otherwise a subcommand or a value, when there are any.",
    '  if [[ "$cur" != -* && -n "$pos" ]]; then words="$pos"; else words="$flags"; fi',
    '  COMPREPLY=( $(compgen -W "$words" -- "$cur") )',
    "}",
    "complete -o default -F _tokenintel tokenintel",
  ];
  return `${lines.join("\n")}\n`;
}
