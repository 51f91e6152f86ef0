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
function flagLine(f: CompletionFlag, condition: string, command = ""): string {
  const parts = ["complete -c tokenintel", condition].filter(Boolean);
  for (const n of f.names) parts.push(n.startsWith("--") ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`);
  if (f.takesValue || (f.optionalValue && f.dynamic)) {
    if (f.dynamic)
      parts.push(`-x -a '(__tokenintel_${f.dynamic}${f.dynamic === "paths" ? ` ${command}` : ""})'`);
    else parts.push(f.values ? `-x -a ${q(f.values.join(" "))}` : "-r");
  }
  parts.push(`-d ${q(f.description)}`);
  return parts.join(" ");
}

/** The fixed values of a command's arguments. */
function argLines(s: CompletionNode, condition: string): string[] {
  return s.args
    .filter((a) => a.values)
    .map((a) => `complete -c tokenintel ${condition} -a ${q(a.values!.join(" "))} -d ${q(a.name)}`);
}

/** A command's name (offered until a command is given), its flags, and its subcommands' or arguments' lines. */
function commandLines(c: CompletionNode, names: string): string[] {
  const inC = `-n "__fish_seen_subcommand_from ${c.name}"`;
  const lines = [
    `complete -c tokenintel -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${q(c.description)}`,
    ...c.flags.map((f) => flagLine(f, inC, c.name)),
  ];
  if (!c.subcommands.length) lines.push(...argLines(c, inC));
  const subNames = c.subcommands.map((s) => s.name).join(" ");
  for (const s of c.subcommands) {
    lines.push(
      `complete -c tokenintel -n "__fish_seen_subcommand_from ${c.name}; and not __fish_seen_subcommand_from ${subNames}" -a ${s.name} -d ${q(s.description)}`,
    );
    const inS = `-n "__fish_seen_subcommand_from ${c.name}; and __fish_seen_subcommand_from ${s.name}"`;
    lines.push(...s.flags.map((f) => flagLine(f, inS)), ...argLines(s, inS));
  }
  return lines;
}

export function fish(program: CompletionNode): string {
  const names = program.subcommands.map((c) => c.name).join(" ");
  const lines = [
    ...PREAMBLE,
    ...program.flags.map((f) => flagLine(f, "")),
    ...program.subcommands.flatMap((c) => commandLines(c, names)),
  ];
  return `${lines.join("\n")}\n`;
}
