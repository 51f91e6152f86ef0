import type { CompletionFlag, CompletionNode } from "./tree.js";

// The zsh script: an _arguments spec a command, nested for subcommands.

/** Text inside a single-quoted zsh word: ' closes and reopens the quote. */
const zq = (text: string) => text.replace(/'/g, "'\\''");

/** An _arguments description ("[...]"): brackets and backslashes escaped, colons kept. */
const zshExplanation = (text: string) => zq(text.replace(/[\\[\]]/g, "\\$&"));

/** A _describe item: "name:description", a colon in the name escaped, the description as it is. */
const zshItem = (name: string, description: string) =>
  `'${zq(name.replace(/:/g, "\\:"))}:${zq(description)}'`;

function zshFlag(flag: CompletionFlag, command = ""): string {
  const desc = zshExplanation(flag.description);
  const colon = flag.optionalValue ? "::" : ":";
  const value =
    !flag.takesValue && !(flag.optionalValue && flag.dynamic)
      ? ""
      : flag.dynamic
        ? `${colon}${flag.dynamic}:_tokenintel_${flag.dynamic}${flag.dynamic === "paths" ? ` ${command}` : ""}`
        : flag.values
          ? `:value:(${flag.values.map((choice) => zq(choice)).join(" ")})`
          : ":value: ";
  if (flag.names.length === 2)
    return `'(${flag.names.join(" ")})'{${flag.names.join(",")}}'[${desc}]${value}'`;
  return `'${flag.names[0]}[${desc}]${value}'`;
}

function zshArgs(node: CompletionNode): string {
  if (!node.args.length) return "";
  return node.args
    .map((argument, index) => {
      const name = argument.name.replace(/:/g, "");
      return argument.values
        ? `'${index + 1}:${name}:(${argument.values.join(" ")})'`
        : `'${index + 1}:${name}: '`;
    })
    .join(" ");
}

function zshCommand(command: CompletionNode, indent: string): string {
  const flags = command.flags.map((f) => zshFlag(f, command.name)).join(" ");
  const args = zshArgs(command);
  if (!command.subcommands.length) {
    const parts = [flags, args].filter(Boolean).join(" ");
    return `${indent}${command.name})\n${indent}  _arguments ${parts || "'*::arg:_default'"} ;;`;
  }
  const items = command.subcommands
    .map((subcommand) => zshItem(subcommand.name, subcommand.description))
    .join(" ");
  const inner = command.subcommands
    .map((subcommand) => zshCommand(subcommand, `${indent}        `))
    .join("\n");
  return [
    `${indent}${command.name})`,
    `${indent}  local -a subcommands; subcommands=(${items})`,
    `${indent}  _arguments -C ${flags ? `${flags} ` : ""}'1: :->sub' '*::arg:->subargs'`,
    `${indent}  case $state in`,
    `${indent}    sub) _describe -t subcommands '${command.name} subcommand' subcommands ;;`,
    `${indent}    subargs)`,
    `${indent}      case $words[1] in`,
    inner,
    `${indent}      esac ;;`,
    `${indent}  esac ;;`,
  ].join("\n");
}

/** The functions that ask `tokenintel __complete` for tickers and paths. */
const HELPERS = `# Tickers from the local token index (tokenintel directory --sync), for the last item of a
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

`;

export function zsh(program: CompletionNode): string {
  const globals = program.flags.map((f) => zshFlag(f)).join(" \\\n    ");
  const commands = program.subcommands
    .map((command) => zshItem(command.name, command.description))
    .join("\n    ");
  const cases = program.subcommands.map((command) => zshCommand(command, "      ")).join("\n");
  return `#compdef tokenintel
# zsh completion for tokenintel; load with: source <(tokenintel completion zsh)

${HELPERS}_tokenintel() {
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
