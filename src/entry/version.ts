import { writeOutSync } from "../files/stdout.js";
import { VERSION } from "../version.js";

// dist/version.cjs: `tokenintel --version` (and -V), answered by the shim without the program.

export function printVersion(): void {
  writeOutSync(`${VERSION}\n`);
}
