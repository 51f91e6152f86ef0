// The tricks on trial (`npm run bench -- --trials [22 24 26]`): each build plugin that patches a
// dependency for speed, and each V8 flag the shim sets, measured with and without it on each Node
// line asked for, side by side in one run, medians of BENCH_RUNS runs alternated. A trick whose
// figure does not move is a candidate to go. The plugins kept for correctness, not speed
// (no-optional-natives: no bare package looked up at run time; node-prefix: every builtin written
// node:) are tried by test/package/dist-imports.test.ts, not here.
import { spawnSync } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import {
  BIN,
  clean,
  nodesAsked,
  printTable,
  RSS_PRELOAD,
  root,
  run,
  sandbox,
  sideBySide,
  work,
} from "./bench-lib.mjs";

/** A build of this tree into `work/<name>`, without the plugins named; its binary's path. */
function variant(name, without) {
  const dir = join(work, name);
  cpSync(join(root, "bin"), join(dir, "bin"), { recursive: true });
  const env = { ...process.env, TOKENINTEL_BUILD_DIST: join(dir, "dist"), TOKENINTEL_BUILD_WITHOUT: without };
  const built = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { env, stdio: "inherit" });
  if (built.status !== 0) throw new Error(`trial build ${name} failed`);
  return join(dir, "bin", "tokenintel.js");
}

/** One run: wall ms and peak RSS in MB. `pty`: under a pseudo-terminal of `pty` columns. */
function once(node, bin, args, { env = {}, pty } = {}) {
  const { ms, stdout, stderr } = run(node, ["-r", RSS_PRELOAD, bin, ...args], {
    env,
    pty,
    capture: Boolean(pty),
  });
  return { ms, mb: Number(/MAX_RSS_KB=(\d+)/.exec(`${stderr}${stdout}`)?.[1] ?? 0) / 1024 };
}

const { nodes, versions } = nodesAsked(process.argv.slice(2).filter((arg) => arg !== "--trials"));
const s0 = await sandbox([], BIN);
const big = await sandbox(["--tokens", "100000", "--directory-style", "envelope"], BIN);
const key = (server) => ["--base-url", server.url, "--api-key", server.key];
const one = [...key(s0), "market", "-c", "base", "--tickers", "VIRTUAL", "--json"];
// Tokens the sandbox knows (plain tickers), for a check whose reasons wrap.
const listed = spawnSync(
  process.execPath,
  [BIN, ...key(s0), "directory", "-c", "base", "--json", "--fields", "symbol", "--limit", "80"],
  { env: clean, encoding: "utf8" },
);
const tickers = JSON.parse(listed.stdout)
  .map((record) => record.symbol)
  .filter((symbol) => /^[A-Z0-9]+$/.test(symbol))
  .join(",");
const wrapped = [...key(s0), "check", "-c", "base", "--tickers", tickers];
const stream = [...key(big), "directory", "-c", "base", "--ndjson"];

// [trick, what it is said to save, how to run without it, the run measured, the figure].
const PLUGINS = ["lazy-undici-http2", "undici-public", "core-chunk"];
const TRIALS = [
  ...PLUGINS.map((p) => [`plugin ${p}`, "start-up of a run that requests", { build: p }, one, {}, "ms"]),
  [
    "plugin own-string-width",
    "a wrapped table's layout",
    { build: "own-string-width" },
    wrapped,
    { pty: 100 },
    "ms",
  ],
  ["V8 --liftoff-only (Node < 22)", "a short run's wait at exit", { v8: true }, one, {}, "ms"],
  ["V8 flags of an NDJSON stream", "peak memory of 100,000 records", { v8: true }, stream, {}, "mb"],
];

const builds = new Map();
const rows = [];
for (const [label, saves, how, args, options, figure] of TRIALS) {
  const without = how.build ? (builds.get(how.build) ?? variant(how.build, how.build)) : BIN;
  builds.set(how.build, without);
  const cells = nodes.map((node) => {
    const env = how.v8 ? { TOKENINTEL_V8_FLAGS: "0" } : {};
    const [a, b] = sideBySide(
      () => once(node, BIN, args, options),
      () => once(node, without, args, { ...options, env }),
      figure,
    );
    const unit = figure === "ms" ? "ms" : "MB";
    return `${a.toFixed(figure === "ms" ? 0 : 1)} vs ${b.toFixed(figure === "ms" ? 0 : 1)} ${unit} (${(((b - a) / b) * 100).toFixed(0)}%)`;
  });
  rows.push([label, saves, ...cells]);
  console.error(`${label}: ${cells.join(", ")}`);
}
printTable(["trick", "saves", ...versions.map((version) => `Node ${version}: with vs without`)], rows);
process.exit(0);
