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
await import("../dist/cli.js");
