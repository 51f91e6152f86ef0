#!/usr/bin/env node
// Thin shim: turn on Node's compile cache where the runtime has it, then load the bundle.
import module from "node:module";
import v8 from "node:v8";

// undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing
// tier in the background, and a short-lived process then waits ~80 ms at exit for that job to
// finish. The baseline (Liftoff) code parses fast enough for this tool; skip the tier-up.
v8.setFlagsFromString("--liftoff-only");

if (typeof module.enableCompileCache === "function") {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache directory is not a reason to fail.
  }
}
try {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    const { version } = await import("../dist/version.js");
    process.stdout.write(`${version}\n`);
  } else if (args[0] === "__complete") {
    // Shell completion, on every Tab: the token index reader alone, without the program.
    await import("../dist/complete.js");
  } else {
    await import("../dist/cli.js");
  }
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && /\/dist\/(cli|version|complete)\.js/.test(String(error.url ?? error.message))) {
    process.stderr.write("tokenintel: not built yet; run 'npm run build' (npm install does it)\n");
    process.exit(1);
  }
  throw error;
}
