// The tricks on trial (`npm run bench -- --trials [22 24 26]`): each build plugin that patches a
// dependency for speed, and each V8 flag the shim sets, measured with and without it on each Node
// line asked for, side by side in one run, medians of BENCH_RUNS runs alternated. A trick whose
// figure does not move is a candidate to go. The plugins kept for correctness, not speed
// (no-optional-natives: no bare package looked up at run time; node-prefix: every builtin written
// node:) are tried by test/package/dist-imports.test.ts, not here.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { majorLines, nodeOf } from "./node-lines.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Math.max(11, Number(process.env.BENCH_RUNS ?? 15));
const work = mkdtempSync(join(tmpdir(), "tokenintel-trials-"));
const clean = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work };
const children = [];
process.on("exit", () => {
  for (const c of children) c.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

/** A build of this tree into `work/<name>`, without the plugins named; its binary's path. */
function variant(name, without) {
  const dir = join(work, name);
  cpSync(join(root, "bin"), join(dir, "bin"), { recursive: true });
  const env = { ...process.env, TOKENINTEL_BUILD_DIST: join(dir, "dist"), TOKENINTEL_BUILD_WITHOUT: without };
  const r = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { env, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`trial build ${name} failed`);
  return join(dir, "bin", "tokenintel.js");
}

/** `tokenintel sandbox` with these options, its URL and key. */
function sandbox(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "sandbox", "--port", "0", ...args], {
      env: clean,
      stdio: ["ignore", "pipe", "ignore"],
    });
    children.push(child);
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const m = /url: (\S+)\napi key: (\S+)\n/.exec(out);
      if (m) resolve({ url: m[1], key: m[2] });
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited (${code})`)));
  });
}

const rss = join(work, "rss.cjs");
writeFileSync(
  rss,
  'process.on("exit", () => process.stderr.write(`\\nMAX_RSS_KB=${process.resourceUsage().maxRSS}\\n`));\n',
);

/** One run: wall ms and peak RSS in MB. `pty`: under a pseudo-terminal of `pty` columns. */
function once(node, bin, args, { env = {}, pty } = {}) {
  const line = [node, "-r", rss, bin, ...args];
  const command = pty ? ["script", "-qec", line.map((a) => `'${a}'`).join(" "), "/dev/null"] : line;
  const t0 = performance.now();
  const r = spawnSync(command[0], command.slice(1), {
    env: { ...clean, ...env, ...(pty ? { COLUMNS: String(pty) } : {}) },
    stdio: ["ignore", pty ? "pipe" : "ignore", "pipe"],
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const text = `${r.stderr}${pty ? r.stdout : ""}`;
  return { ms, mb: Number(/MAX_RSS_KB=(\d+)/.exec(text)?.[1] ?? 0) / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** With and without, alternated, medians of RUNS: [with, without] for the figure asked. */
function sideBySide(withIt, withoutIt, figure) {
  withIt();
  withoutIt();
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(withIt()[figure]);
    b.push(withoutIt()[figure]);
  }
  return [median(a), median(b)];
}

const extra = majorLines(
  process.argv.slice(2).filter((a) => a !== "--trials"),
  "bench",
);
const nodes = [process.execPath, ...extra.map((major) => nodeOf(major))];
const versions = nodes.map((n) => spawnSync(n, ["--version"], { encoding: "utf8" }).stdout.trim());
const main = join(root, "bin", "tokenintel.js");
const s0 = await sandbox(main, []);
const big = await sandbox(main, ["--tokens", "100000", "--directory-style", "envelope"]);
const key = (s) => ["--base-url", s.url, "--api-key", s.key];
const one = [...key(s0), "market", "-c", "base", "--tickers", "VIRTUAL", "--json"];
// Tokens the sandbox knows (plain tickers), for a check whose reasons wrap.
const listed = spawnSync(
  process.execPath,
  [main, ...key(s0), "directory", "-c", "base", "--json", "--fields", "symbol", "--limit", "80"],
  { env: clean, encoding: "utf8" },
);
const tickers = JSON.parse(listed.stdout)
  .map((r) => r.symbol)
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
  const without = how.build ? (builds.get(how.build) ?? variant(how.build, how.build)) : main;
  builds.set(how.build, without);
  const cells = nodes.map((node) => {
    const env = how.v8 ? { TOKENINTEL_V8_FLAGS: "0" } : {};
    const [a, b] = sideBySide(
      () => once(node, main, args, options),
      () => once(node, without, args, { ...options, env }),
      figure,
    );
    const unit = figure === "ms" ? "ms" : "MB";
    return `${a.toFixed(figure === "ms" ? 0 : 1)} vs ${b.toFixed(figure === "ms" ? 0 : 1)} ${unit} (${(((b - a) / b) * 100).toFixed(0)}%)`;
  });
  rows.push([label, saves, ...cells]);
  console.error(`${label}: ${cells.join(", ")}`);
}
const header = ["trick", "saves", ...versions.map((v) => `Node ${v}: with vs without`)];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
process.exit(0);
