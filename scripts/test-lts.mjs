// Runs the test suite, then the packed-package check, on other lines of Node: each binary comes from
// the npm registry package node-<platform>-<arch>, installed once into .cache/node-<major>.
//   node scripts/test-lts.mjs 22 24 26     (no argument: the lines in DEFAULT_LINES)
// The machine's own Node runs the suite through `npm test`; CI runs both (.ci/run).
import { execFileSync, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_LINES, majorLines, nodeOf } from "./node-lines.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const lines = majorLines(args.length ? args : DEFAULT_LINES, "test-lts");

const results = [];
for (const major of lines) {
  const started = Date.now();
  const node = nodeOf(major);
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  console.log(`\n=== Node ${version}: the test suite ===`);
  const suite = spawnSync(node, [join(root, "node_modules", "vitest", "vitest.mjs"), "run"], {
    stdio: "inherit",
    cwd: root,
  });
  console.log(`\n=== Node ${version}: the packed package ===`);
  const pack = spawnSync(node, [join(root, "scripts", "pack-check.mjs")], { stdio: "inherit", cwd: root });
  const ok = suite.status === 0 && pack.status === 0;
  results.push({ version, ok, seconds: Math.round((Date.now() - started) / 1000) });
}

console.log("\nNode     result  time");
for (const r of results) console.log(`${r.version.padEnd(8)} ${r.ok ? "pass" : "FAIL"}    ${r.seconds} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
