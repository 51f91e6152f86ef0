import { describeFsError } from "./errors.js";

/**
 * Ends the process the way every writing path of tokenintel does when its output cannot be
 * written: quietly with exit 0 when the reader went away (EPIPE: `| head -c 0`), else one line on
 * stderr and exit 1 (`> /dev/full`: "could not write the output: no space left on device
 * (ENOSPC)"). For the shim's fast paths (--version, --help), which run without the program.
 */
export function endOnOutputError(
  stream: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    try {
      stderr.write(`tokenintel: could not write the output: ${describeFsError(error)}\n`);
    } catch {
      // stderr is gone too: the exit code still says it
    }
    process.exit(1);
  });
}
