// Runs the whole test suite again on the current LTS line of Node (24), whose binary comes from the
// npm registry package node-<platform>-<arch>. Users on Node 20 and on Node 24 both get a tested tool.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const LTS_MAJOR = "24";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const prefix = join(root, ".cache", `node-${LTS_MAJOR}`);
const pkg = `node-${process.platform}-${process.arch}`;
const node = join(prefix, "node_modules", pkg, "bin", "node");

if (!existsSync(node)) {
  console.log(`Installing Node ${LTS_MAJOR} (${pkg}) into ${prefix}`);
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
      `${pkg}@${LTS_MAJOR}`,
    ],
    {
      stdio: "inherit",
    },
  );
}
const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
console.log(`Running the tests on Node ${version}`);
const result = spawnSync(node, [join(root, "node_modules", "vitest", "vitest.mjs"), "run"], {
  stdio: "inherit",
  cwd: root,
});
process.exit(result.status ?? 1);
