// Runs the test suite, then the packed-package check, on other lines of Node: each binary comes from
// the npm registry package node-<platform>-<arch>, installed once into .cache/node-<major>.
//   node scripts/test-lts.mjs 22 24 26     (no argument: the lines in DEFAULT_LINES)
// The machine's own Node runs the suite through `npm test`; CI runs both (.ci/run).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The supported lines besides the machine's Node 20 (engines in package.json says the same). */
const DEFAULT_LINES = ["22", "24", "26"];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = `node-${process.platform}-${process.arch}`;
const lines = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_LINES;
for (const major of lines) {
  if (!/^\d+$/.test(major)) {
    console.error(`test-lts: "${major}" is not a major version of Node (e.g. 22)`);
    process.exit(2);
  }
}

/** The node binary of a major line, installed from the registry the first time. */
function nodeOf(major) {
  const prefix = join(root, ".cache", `node-${major}`);
  const node = join(prefix, "node_modules", pkg, "bin", "node");
  if (!existsSync(node)) {
    console.log(`Installing Node ${major} (${pkg}@${major}) into ${prefix}`);
    execFileSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--prefix",
        prefix,
        `${pkg}@${major}`,
      ],
      { stdio: "inherit" },
    );
  }
  return node;
}

const results = [];
for (const major of lines) {
  const started = Date.now();
  const node = nodeOf(major);
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${node} is ${version}, not Node ${major}`);
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
