import module from "node:module";
import { join } from "node:path";
import { cacheDir } from "../config/locations.js";
import { makePrivateDir } from "../files/private.js";

// dist/compile-cache.cjs: Node 22+'s compile cache, turned on by the shim (entry/shim.ts) before it
// loads a bundle; a file of its own, so that --version and --help load none of it.

/** Node 22+'s compile cache, in a private folder (below); a folder that cannot be is not a reason to fail. */
export function enableCompileCache(): void {
  const node = module as typeof module & { enableCompileCache?: (dir: string) => unknown };
  if (typeof node.enableCompileCache !== "function") return;
  try {
    const dir = privateCompileCacheDir(process.env);
    if (dir) node.enableCompileCache(dir);
  } catch {
    // A read-only cache directory is not a reason to fail.
  }
}

/**
 * Node 22+ keeps compiled code between runs in a compile cache, and runs what it finds there. Its
 * default folder, os.tmpdir()/node-compile-cache, may be made first by another user of the machine
 * who would then choose the code tokenintel runs. So the cache lives in tokenintel's cache folder,
 * and is used only when that folder and the one above it are private folders of the user's own
 * (the private-file module's rules). Undefined: run without the cache.
 */
function privateCompileCacheDir(env: NodeJS.ProcessEnv): string | undefined {
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
