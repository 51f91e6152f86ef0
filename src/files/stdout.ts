import { writeSync } from "node:fs";
import { describeFsError } from "./errors.js";

// How the shim's fast paths (--version, --help), which run without the program, write their
// output and end when it cannot be written, the way every writing path of tokenintel does: quietly
// with exit 0 when the reader went away (EPIPE: `| head -c 0`), else one line on stderr and exit 1
// (`> /dev/full`: "could not write the output: no space left on device (ENOSPC)").

function fail(error: NodeJS.ErrnoException, stderr: (line: string) => void): never {
  if (error.code === "EPIPE") process.exit(0);
  try {
    stderr(`tokenintel: could not write the output: ${describeFsError(error)}\n`);
  } catch {
    // stderr is gone too: the exit code still says it
  }
  process.exit(1);
}

/** Ends the process as above when `stream` fails. */
export function endOnOutputError(
  stream: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): void {
  stream.on("error", (error: NodeJS.ErrnoException) => fail(error, (line) => stderr.write(line)));
}

/**
 * Writes `text` to standard output with write(2) on file descriptor 1, all of it, before
 * returning. `process.stdout` is not touched: making it (a tty, pipe or file stream) costs
 * ~2–3 ms of a 25 ms `--version`. When fd 1 is a non-blocking pipe (EAGAIN), what is left goes
 * through `process.stdout`, which waits for the pipe.
 */
export function writeOutSync(text: string): void {
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code !== "EAGAIN") fail(e, (line) => writeSync(2, line));
    endOnOutputError(process.stdout);
    process.stdout.write(rest);
  }
}
