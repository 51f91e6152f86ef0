import { type CompletionFlag, type CompletionNode, q } from "./tree.js";

// The fish script: a `complete` line a flag, subcommand and argument value, each with its condition.

/** The script's head: how to load it, and the functions that ask `tokenintel __complete`. */
const PREAMBLE = [
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

/** `complete -c tokenintel [condition] -l name ... -d description` for one flag. */
function flagLine(flag: CompletionFlag, condition: string, command = ""): string {
  const parts = ["complete -c tokenintel", condition].filter(Boolean);
  for (const name of flag.names)
    parts.push(name.startsWith("--") ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (flag.takesValue || (flag.optionalValue && flag.dynamic)) {
    if (flag.dynamic)
      parts.push(`-x -a '(__tokenintel_${flag.dynamic}${flag.dynamic === "paths" ? ` ${command}` : ""})'`);
    else parts.push(flag.values ? `-x -a ${q(flag.values.join(" "))}` : "-r");
  }
  parts.push(`-d ${q(flag.description)}`);
  return parts.join(" ");
}

/** The fixed values of a command's arguments. */
function argLines(node: CompletionNode, condition: string): string[] {
  return node.args
    .filter((a) => a.values)
    .map((a) => `complete -c tokenintel ${condition} -a ${q(a.values!.join(" "))} -d ${q(a.name)}`);
}

/** A command's name (offered until a command is given), its flags, and its subcommands' or arguments' lines. */
function commandLines(command: CompletionNode, names: string): string[] {
  const inC = `-n "__fish_seen_subcommand_from ${command.name}"`;
  const lines = [
    `complete -c tokenintel -n "not __fish_seen_subcommand_from ${names}" -a ${command.name} -d ${q(command.description)}`,
    ...command.flags.map((f) => flagLine(f, inC, command.name)),
  ];
  if (!command.subcommands.length) lines.push(...argLines(command, inC));
  const subNames = command.subcommands.map((s) => s.name).join(" ");
  for (const subcommand of command.subcommands) {
    lines.push(
      `complete -c tokenintel -n "__fish_seen_subcommand_from ${command.name}; and not __fish_seen_subcommand_from ${subNames}" -a ${subcommand.name} -d ${q(subcommand.description)}`,
    );
    const inS = `-n "__fish_seen_subcommand_from ${command.name}; and __fish_seen_subcommand_from ${subcommand.name}"`;
    lines.push(...subcommand.flags.map((f) => flagLine(f, inS)), ...argLines(subcommand, inS));
  }
  return lines;
}

export function fish(program: CompletionNode): string {
  const names = program.subcommands.map((command) => command.name).join(" ");
  const lines = [
    ...PREAMBLE,
    ...program.flags.map((f) => flagLine(f, "")),
    ...program.subcommands.flatMap((command) => commandLines(command, names)),
  ];
  return `${lines.join("\n")}\n`;
}
