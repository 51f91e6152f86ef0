// The lines of Node tokenintel supports besides the machine's own, and their binaries: each comes
// from the npm registry package node-<platform>-<arch>, installed once into .cache/node-<major>.
// Used by the test runs on other lines (test-lts.mjs) and by the benchmark (bench.mjs).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The supported lines besides the machine's Node 20 (engines in package.json says the same). */
export const DEFAULT_LINES = ["22", "24", "26"];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = `node-${process.platform}-${process.arch}`;

/** Major versions from a command line; exits 2 naming the first that is not one. */
export function majorLines(args, name) {
  for (const major of args) {
    if (!/^\d+$/.test(major)) {
      console.error(`${name}: "${major}" is not a major version of Node (e.g. 22)`);
      process.exit(2);
    }
  }
  return args;
}

/** The node binary of a major line, installed from the registry the first time. */
export function nodeOf(major) {
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
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${node} is ${version}, not Node ${major}`);
  return node;
}
