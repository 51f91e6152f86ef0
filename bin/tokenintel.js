#!/usr/bin/env node
// The shim is src/entry/shim.ts, built into dist/shim.cjs (type-checked, linted and tested with the
// rest). CommonJS, as this file is (bin/package.json): Node loads it faster than an ES module.
"use strict";
const { join } = require("node:path");

const dist = join(__dirname, "..", "dist");
let shim;
try {
  shim = require(join(dist, "shim.cjs"));
} catch (error) {
  if (error?.code !== "MODULE_NOT_FOUND" || !String(error.message).includes(dist)) throw error;
  process.stderr.write("tokenintel: not built yet; run 'npm run build' (npm install does it)\n");
  process.exit(1);
}
shim.runShim(dist, process.argv.slice(2));
