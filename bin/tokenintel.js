#!/usr/bin/env node
// Thin shim: turn on Node's compile cache where the runtime has it, then load the bundle.
import module from "node:module";

if (typeof module.enableCompileCache === "function") {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache directory is not a reason to fail.
  }
}
try {
  await import("../dist/cli.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.url ?? error.message).includes("/dist/cli.js")) {
    process.stderr.write("tokenintel: not built yet; run 'npm run build' (npm install does it)\n");
    process.exit(1);
  }
  throw error;
}
