#!/usr/bin/env node
// The shim, in CommonJS (bin/package.json says so): Node loads a CommonJS entry ~5 ms faster than
// an ES module, which is most of what `--version` and `--help` cost. Those two are answered from
// small files written by the build; everything else loads the bundle (ES modules in dist/).
"use strict";
const { join } = require("node:path");

const dist = join(__dirname, "..", "dist");
const args = process.argv.slice(2);

function notBuilt(error) {
  if (error?.code === "MODULE_NOT_FOUND" || error?.code === "ERR_MODULE_NOT_FOUND" || error?.code === "ENOENT") {
    if (String(error.url ?? error.path ?? error.message).includes(dist)) {
      process.stderr.write("tokenintel: not built yet; run 'npm run build' (npm install does it)\n");
      process.exit(1);
    }
  }
  throw error;
}

function answeredHere() {
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    process.stdout.write(`${require(join(dist, "version.cjs"))}\n`);
    return true;
  }
  const last = args[args.length - 1];
  if (args.length === 0 || args[0] === "help" || last === "--help" || last === "-h") {
    return require(join(dist, "help.cjs")).printHelp(args, join(dist, "help.json"));
  }
  return false;
}

/**
 * Node 22+ keeps compiled code between runs in a compile cache, and runs what it finds there. Its
 * default folder, os.tmpdir()/node-compile-cache, may be made first by another user of the machine
 * who would then choose the code tokenintel runs. So the cache lives in tokenintel's cache folder
 * (as src/config/paths.ts cacheDir() names it), and is used only when that folder and its parent are
 * this user's and no one else may write to them. Undefined: run without the cache.
 */
function ownCompileCache() {
  const { env } = process;
  const os = require("node:os");
  const home = os.homedir();
  const base =
    env.TOKENINTEL_CACHE_DIR ||
    (process.platform === "darwin"
      ? join(home, "Library", "Caches", "tokenintel")
      : process.platform === "win32"
        ? join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "tokenintel", "Cache")
        : join(env.XDG_CACHE_HOME || join(home, ".cache"), "tokenintel"));
  const dir = join(base, "node-compile-cache");
  const fs = require("node:fs");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  if (uid === undefined) return dir; // no owners to compare (Windows)
  for (const folder of [dir, base]) {
    const stat = fs.statSync(folder);
    if (stat.uid !== uid || (stat.mode & 0o022) !== 0) return undefined;
  }
  return dir;
}

let done = false;
try {
  done = answeredHere();
} catch (error) {
  notBuilt(error);
}
if (!done) {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing
  // tier in the background, and a short-lived process then waits ~80 ms at exit for that job to
  // finish. The baseline (Liftoff) code parses fast enough for this tool; skip the tier-up.
  require("node:v8").setFlagsFromString("--liftoff-only");
  const module = require("node:module");
  if (typeof module.enableCompileCache === "function") {
    try {
      const dir = ownCompileCache();
      if (dir) module.enableCompileCache(dir);
    } catch {
      // A read-only cache directory is not a reason to fail.
    }
  }
  // Shell completion, on every Tab: the token index reader alone, without the program.
  const entry = args[0] === "__complete" ? import("../dist/complete.js") : import("../dist/cli.js");
  entry.catch(notBuilt);
}
