import type { Command } from "commander";

// The line a usage error from commander becomes: one line, with the hint a person needs to fix
// the command (an option in the wrong place, a flag another command has, a space in a list).

/** Long options of a command (and the program's), as typed. */
function longOptions(cmd: Command): string[] {
  return cmd.options.flatMap((option) =>
    [option.long, option.short].filter((name): name is string => Boolean(name)),
  );
}

function distance(from: string, to: string): number {
  const row = Array.from({ length: to.length + 1 }, (_, column) => column);
  for (let i = 1; i <= from.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= to.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (from[i - 1] === to[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[to.length]!;
}

/** Names close to `typed`: those it starts (--ver → --verbose, --version), else at most 2 edits away. */
export function closest(typed: string, known: readonly string[]): string[] {
  const prefixed = known.filter((name) => name.startsWith(typed) && name !== typed);
  if (prefixed.length) return prefixed.slice(0, 3);
  // Two edits change a length by two at most: a longer or shorter name is never measured.
  return known
    .filter((name) => Math.abs(name.length - typed.length) <= 2)
    .map((name) => ({ name, edits: distance(typed, name) }))
    .filter(({ edits }) => edits <= 2)
    .sort((a, b) => a.edits - b.edits)
    .map(({ name }) => name)
    .slice(0, 3);
}

export interface HintContext {
  /** The words typed after the program name. */
  args: readonly string[];
  program: Command;
  /** Commands that take an option, by its long name (loaded only when an option is unknown). */
  commandsTaking: (option: string) => Promise<string[]>;
}

/** Commander's message ("error: unknown option '--pay'\n(Did you mean --page?)") as one line with a hint. */
export async function usageLine(message: string, ctx: HintContext): Promise<string> {
  const first = message
    .replace(/^error: /, "")
    .split("\n")[0]!
    .trim();
  const unknownOption = /^unknown option '([^']+)'/.exec(first);
  if (unknownOption) {
    const option = unknownOption[1]!.replace(/=.*$/, "");
    const commandWord = ctx.args.find(
      (a) => !a.startsWith("-") && ctx.program.commands.some((c) => c.name() === a),
    );
    const command = ctx.program.commands.find((c) => c.name() === commandWord);
    const all = await ctx.commandsTaking(option);
    const takers = all.filter((name) => name !== commandWord);
    const before = command && ctx.args.indexOf(option) < ctx.args.indexOf(commandWord!);
    if (before && all.includes(commandWord!))
      return `${first}: ${option} is an option of '${commandWord}', so it goes after it (tokenintel ${commandWord} ${option} …)`;
    if (command && takers.length && !longOptions(command).includes(option))
      return `${first}: '${commandWord}' does not take ${option}; ${takers.join(", ")} ${takers.length === 1 ? "does" : "do"}`;
    if (!command && takers.length)
      return `${first}: ${option} is an option of ${takers.join(", ")}; it goes after the command (tokenintel ${takers[0]} ${option} …)`;
    const near = closest(option, [...longOptions(ctx.program), ...(command ? longOptions(command) : [])]);
    return near.length ? `${first} (did you mean ${near.join(" or ")}?)` : first;
  }
  const tooMany = /^too many arguments for '([^']+)'/.exec(first);
  if (tooMany) {
    const list = ctx.args.find((a) => /,$/.test(a));
    if (list)
      return `too many arguments for '${tooMany[1]}': a list is comma-separated without spaces (${list}${ctx.args[ctx.args.indexOf(list) + 1] ?? ""}), or quote it`;
    return `too many arguments for '${tooMany[1]}' (see 'tokenintel ${tooMany[1]} --help')`;
  }
  const unknownCommand = /^unknown command '([^']+)'/.exec(first);
  if (unknownCommand) {
    const names = ctx.program.commands
      .filter((c) => !(c as { _hidden?: boolean })._hidden)
      .map((c) => c.name());
    const near = closest(unknownCommand[1]!, names);
    return `unknown command '${unknownCommand[1]}'${near.length ? ` (did you mean ${near.join(" or ")}?)` : " (see 'tokenintel --help')"}`;
  }
  return message
    .replace(/^error: /, "")
    .replace(/\n\(Did you mean (.+)\?\)$/, " (did you mean $1?)")
    .trim();
}
