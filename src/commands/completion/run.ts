import type { Command } from "commander";
import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { bash } from "./bash.js";
import { fish } from "./fish.js";
import { SHELLS, type Shell } from "./shells.js";
import { type CompletionNode, nodeOf } from "./tree.js";
import { zsh } from "./zsh.js";

// `tokenintel completion <bash|zsh|fish>`: scripts built from the program itself, so every command
// and flag is covered, with the fixed values the flag tables and arguments give (chains, formats,
// views, config keys, shells). Tickers come from the local token index: the scripts ask the hidden
// `tokenintel __complete tickers <prefix> [chain]`, which reads only that file, never the network.
// The tree the scripts are built from is in tree.ts, each shell's script in its own file.

const RENDER: Record<Shell, (program: CompletionNode) => string> = { bash, zsh, fish };

export async function runCompletion(ctx: RunContext, shell: string, program: Command): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`completion: unknown shell "${shell}" (expected ${SHELLS.join(", ")})`);
  }
  await ctx.io.out(RENDER[shell as Shell](nodeOf(program)));
}
