// What npm run bench (bench.mjs) and its trials (trials.mjs) share: one work folder and a clean
// environment for every run (PATH and a fresh HOME, nothing else: variables such as
// NODE_EXTRA_CA_CERTS add ~50 ms to every Node start), the sandboxes they start (stopped when the
// process exits), one timed run, medians of runs alternated side by side, the Node lines asked for,
// and the Markdown table they print.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { majorLines, nodeOf } from "./node-lines.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = join(root, "bin", "tokenintel.js");
/** Runs a row: BENCH_RUNS, at least 11 (default 15). */
export const RUNS = Math.max(11, Number(process.env.BENCH_RUNS ?? 15));
export const work = mkdtempSync(join(tmpdir(), "tokenintel-bench-"));
export const clean = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work };

const children = [];
process.on("exit", () => {
  stopSandboxes();
  rmSync(work, { recursive: true, force: true });
});

/** Stops the sandboxes started so far. */
export function stopSandboxes() {
  for (const child of children) child.kill("SIGTERM");
}

/** Starts `tokenintel sandbox` (of `bin`, this tree's by default) and resolves with its URL and key. */
export function sandbox(args, bin = BIN) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "sandbox", "--port", "0", ...args], {
      env: clean,
      stdio: ["ignore", "pipe", "ignore"],
    });
    children.push(child);
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (data) => {
      out += data;
      const said = /url: (\S+)\napi key: (\S+)\n/.exec(out);
      if (said) resolve({ url: said[1], key: said[2] });
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited (${code})`)));
  });
}

/** A preload (`node -r`) that writes the process's peak RSS to stderr as it exits. */
export const RSS_PRELOAD = join(work, "rss.cjs");
writeFileSync(
  RSS_PRELOAD,
  'process.on("exit", () => process.stderr.write(`\\nMAX_RSS_KB=${process.resourceUsage().maxRSS}\\n`));\n',
);

/**
 * One run of `node` with `args`: wall time in ms, stdout kept only when asked for. `pty`: under a
 * pseudo-terminal that many columns wide (script(1)), where stderr comes out with stdout.
 */
export function run(node, args, { env = {}, capture = false, input, pty } = {}) {
  const line = [node, ...args];
  const command = pty ? ["script", "-qec", line.map((word) => `'${word}'`).join(" "), "/dev/null"] : line;
  const t0 = performance.now();
  const result = spawnSync(command[0], command.slice(1), {
    env: { ...clean, ...env, ...(pty ? { COLUMNS: String(pty) } : {}) },
    stdio: [input === undefined ? "ignore" : "pipe", capture ? "pipe" : "ignore", "pipe"],
    input,
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t0;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed (${result.status}): ${result.stderr}`);
  return { ms, stdout: capture ? result.stdout.toString() : "", stderr: result.stderr.toString() };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Runs `first` and `second` alternately RUNS times, after a warm-up each (which also fills Node's
 * compile cache): the medians of the `figure` each run returns, [first's, second's].
 */
export function sideBySide(first, second, figure = "ms") {
  first();
  second();
  const firsts = [];
  const seconds = [];
  for (let i = 0; i < RUNS; i++) {
    firsts.push(first()[figure]);
    seconds.push(second()[figure]);
  }
  return [median(firsts), median(seconds)];
}

/** This Node and the lines named in `args` (installed from the npm registry once), with their versions. */
export function nodesAsked(args) {
  const nodes = [process.execPath, ...majorLines(args, "bench").map((major) => nodeOf(major))];
  const versions = nodes.map((node) => spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim());
  return { nodes, versions };
}

/** Prints a Markdown table, each column as wide as its widest cell. */
export function printTable(header, rows) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}
