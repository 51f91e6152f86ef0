import { completeValues } from "../commands/complete/run.js";

// The entry point the bin shim loads for `tokenintel __complete ...`: shell completion runs it on
// every Tab, so it loads nothing but the token index reader (no commander, no program, no client).
// Any failure prints nothing: a completion must never put an error in the user's prompt.

// A reader gone (EPIPE) or a failed write ends the run without a stack trace, and quietly: the
// shell shows whatever a completion prints on stderr in the middle of the line being typed.
process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));

try {
  const [what = "", prefix = "", chain, source, command] = process.argv.slice(3);
  const lines = completeValues(what, prefix, chain || undefined, process.env, source === "sandbox", command);
  if (lines.length) process.stdout.write(`${lines.join("\n")}\n`);
} catch {
  // nothing to offer
}
