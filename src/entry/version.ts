import { writeOutSync } from "../files/stdout.js";
import { VERSION } from "../version.js";

// `tokenintel --version` (and -V), answered by the shim (entry/shim.ts) without the program.

export function printVersion(): void {
  writeOutSync(`${VERSION}\n`);
}
