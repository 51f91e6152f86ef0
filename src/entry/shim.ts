import { join } from "node:path";
import { cacheDir } from "../config/locations.js";
import { makePrivateDir } from "../files/private.js";

// dist/shim.cjs: what bin/tokenintel.js needs of the program, built from the same modules (as
// dist/help.cjs is) rather than copied by hand into the shim.

export { endOnOutputError } from "../files/stdout.js";

/**
 * Node 22+ keeps compiled code between runs in a compile cache, and runs what it finds there. Its
 * default folder, os.tmpdir()/node-compile-cache, may be made first by another user of the machine
 * who would then choose the code tokenintel runs. So the cache lives in tokenintel's cache folder,
 * and is used only when that folder and the one above it are private folders of the user's own
 * (the private-file module's rules). Undefined: run without the cache.
 */
export function privateCompileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = cacheDir(env);
  const dir = join(base, "node-compile-cache");
  try {
    makePrivateDir(base, "the cache folder");
    makePrivateDir(dir, "the compile cache folder");
    return dir;
  } catch {
    return undefined; // a folder that is not private, or cannot be made, is not a reason to fail
  }
}
