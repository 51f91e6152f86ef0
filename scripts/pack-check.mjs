// The package as users get it: packs dist/ as built (npm pack, no scripts), installs the tarball
// into an empty prefix as `npm install -g --ignore-scripts` does, and checks what arrived: only the
// files meant to ship, no dependencies, no install scripts, at most 15 MB on disk, and a tool that
// runs from there with nothing else around it (the sandbox demo, a payment, the config store, the
// man page, the agent skill). Offline: a local tarball with no dependencies needs no registry. Exits 1, loudly, on
// any failure. Run it after `npm run build`; `npm test` and CI do.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const MAX_INSTALLED_BYTES = 15 * 1024 * 1024;
/** What the tarball may hold; everything else (src/, test/, scripts/, docs/) stays home. */
const SHIPPED =
  /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|bin\/(tokenintel\.js|package\.json)|dist\/.+|skills\/tokenintel\/SKILL\.md)$/;
const REQUIRED = [
  "package.json",
  "README.md",
  "LICENSE",
  "CHANGELOG.md",
  "bin/tokenintel.js",
  "bin/package.json",
  "dist/shim.cjs",
  "dist/cli.js",
  "dist/help.json",
  "dist/THIRD_PARTY_NOTICES",
  "dist/tokenintel.1",
  "skills/tokenintel/SKILL.md",
];
/** Scripts npm runs on the user's machine when it installs a package. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "postprepare"];
// A throwaway key for the sandbox's simulated chain; it never holds anything anywhere.
const THROWAWAY_WALLET = `0x${"11".repeat(32)}`;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "tokenintel-pack-"));
const failures = [];
const fail = (message) => failures.push(message);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const started = Date.now();

function sh(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 120_000, ...options });
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${r.status ?? r.signal}:\n${r.stderr || r.stdout}`);
  }
  return r.stdout;
}

/** Bytes on disk (allocated blocks) and the number of files under a folder. */
function diskUsage(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const stat = lstatSync(join(dir, entry));
    bytes += stat.blocks * 512;
    if (stat.isFile()) files++;
  }
  return { bytes, files };
}

/** `npm install -g <tarball>` into a fresh prefix, offline, with a cache of its own. */
function install(tarball, name, extra = []) {
  const prefix = join(work, name);
  mkdirSync(prefix);
  const cache = join(work, `${name}-cache`);
  sh(
    "npm",
    [
      "install",
      "-g",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--cache",
      cache,
      "--prefix",
      prefix,
      ...extra,
      tarball,
    ],
    { cwd: work },
  );
  return prefix;
}

try {
  if (!existsSync(join(root, "dist", "cli.js")))
    throw new Error("dist/ is not built: run `npm run build` first");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

  // 1. The tarball: dist/ as built now (--ignore-scripts: no rebuild under running tests).
  const [packed] = JSON.parse(
    sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: root }),
  );
  const tarball = join(work, packed.filename);
  const paths = packed.files.map((f) => f.path);
  for (const p of paths.filter((p) => !SHIPPED.test(p)))
    fail(`the tarball holds ${p}, which is not meant to ship`);
  for (const p of REQUIRED.filter((p) => !paths.includes(p))) fail(`the tarball lacks ${p}`);
  for (const field of ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"]) {
    if (Object.keys(pkg[field] ?? {}).length)
      fail(`package.json has ${field}: everything must be bundled in dist/`);
  }
  for (const script of INSTALL_SCRIPTS) {
    if (pkg.scripts?.[script])
      fail(`package.json has a "${script}" script, which npm would run on users' machines`);
  }

  // 2. Installed as users do, with install scripts off; then as npm does by default.
  const prefix = install(tarball, "prefix", ["--ignore-scripts"]);
  const installed = diskUsage(prefix);
  if (installed.bytes > MAX_INSTALLED_BYTES) {
    fail(`installed size ${mb(installed.bytes)} is over ${mb(MAX_INSTALLED_BYTES)}`);
  }
  const home = join(prefix, "lib", "node_modules", pkg.name);
  if (existsSync(join(home, "node_modules"))) fail(`npm installed dependencies into ${home}/node_modules`);
  if (!existsSync(join(prefix, "share", "man", "man1", "tokenintel.1"))) {
    fail("npm did not install the man page (package.json man)");
  }
  const withScripts = install(tarball, "prefix-scripts");

  // 3. The installed tool runs, on this Node, from an empty folder, with nothing else to load.
  const config = mkdtempSync(join(work, "config-"));
  const runInstalled = (prefixDir, args, env = {}) =>
    spawnSync(process.execPath, [join(prefixDir, "bin", "tokenintel"), ...args], {
      cwd: work,
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: work, TOKENINTEL_CONFIG_DIR: config, ...env },
    });
  const expectRun = (label, r, check) => {
    let problem = r.status !== 0 ? `exit ${r.status ?? r.signal}` : check(r.stdout);
    if (problem === true || problem === undefined) problem = "";
    if (problem)
      fail(
        `${label}: ${problem || "unexpected output"}\n  stdout: ${r.stdout.slice(0, 400)}\n  stderr: ${r.stderr.slice(0, 400)}`,
      );
    else console.log(`  ok  ${label}`);
  };
  const records = (n) => (stdout) => {
    const value = JSON.parse(stdout);
    return Array.isArray(value) && value.length === n ? "" : `expected ${n} records`;
  };
  expectRun("tokenintel --version", runInstalled(prefix, ["--version"]), (out) =>
    out === `${pkg.version}\n` ? "" : `printed ${JSON.stringify(out)}`,
  );
  expectRun("tokenintel market --help (pre-rendered)", runInstalled(prefix, ["market", "--help"]), (out) =>
    out.startsWith("Usage: tokenintel market [options]") && out.includes("--tickers <list>")
      ? ""
      : `printed ${JSON.stringify(out.slice(0, 80))}`,
  );
  expectRun(
    "tokenintel market --sandbox -c base --limit 2",
    runInstalled(prefix, ["market", "--sandbox", "-c", "base", "--limit", "2"]),
    records(2),
  );
  expectRun(
    "tokenintel directory --sandbox -c base --pay --limit 3 (viem, x402)",
    runInstalled(prefix, ["directory", "--sandbox", "-c", "base", "--pay", "--limit", "3"], {
      TOKENINTEL_WALLET_KEY: THROWAWAY_WALLET,
    }),
    records(3),
  );
  expectRun(
    "tokenintel config set chain base (conf)",
    runInstalled(prefix, ["config", "set", "chain", "base"]),
    () => "",
  );
  expectRun("tokenintel config get chain", runInstalled(prefix, ["config", "get", "chain"]), (out) =>
    out.trim() === "base" ? "" : `printed ${JSON.stringify(out)}`,
  );
  expectRun("tokenintel version --verbose", runInstalled(prefix, ["version", "--verbose"]), (out) =>
    /^version: .+\nnode: .+\nplatform: .+\narch: .+\nconfig: .+\ncache: .+\ndata: .+\n$/.test(out)
      ? ""
      : "not the report",
  );
  // The agent skill the package ships is the one the installed tool prints (npm run docs wrote it).
  const shippedSkill = readFileSync(join(home, "skills", "tokenintel", "SKILL.md"), "utf8");
  expectRun(
    "tokenintel skill (the shipped skills/tokenintel/SKILL.md)",
    runInstalled(prefix, ["skill"]),
    (out) =>
      out === shippedSkill ? "" : "differs from the shipped skills/tokenintel/SKILL.md: run `npm run docs`",
  );
  expectRun(
    "installed without --ignore-scripts: tokenintel --version",
    runInstalled(withScripts, ["--version"]),
    (out) => (out === `${pkg.version}\n` ? "" : `printed ${JSON.stringify(out)}`),
  );

  console.log(
    [
      `tarball ${packed.filename}: ${mb(packed.size)}, ${packed.entryCount} files, ${mb(packed.unpackedSize)} unpacked`,
      `installed into an empty prefix: ${mb(installed.bytes)} on disk, ${installed.files} files`,
      `node ${process.version}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ].join("\n"),
  );
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (failures.length) {
  console.error(`\npack-check FAILED:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
  process.exit(1);
}
console.log("pack-check passed");
