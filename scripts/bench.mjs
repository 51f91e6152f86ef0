// npm run bench: the performance targets, each measured side by side with its baseline in the same
// run (alternating), against sandboxes started here on 127.0.0.1. Prints one table; exits 1 when a
// bound fails. Not part of npm test: timings on shared machines are noisy, ratios are what count.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(root, "bin", "tokenintel.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
// The client's default concurrency; BENCH_CONCURRENCY runs the same rows at another one.
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const LATENCY = 50;
const work = mkdtempSync(join(tmpdir(), "tokenintel-bench-"));
const env = { ...process.env, TOKENINTEL_CONFIG_DIR: work, NO_COLOR: "1" };
for (const k of Object.keys(env))
  if (k.startsWith("TOKENINTEL_") && k !== "TOKENINTEL_CONFIG_DIR") delete env[k];

const children = [];
process.on("exit", () => {
  for (const c of children) c.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

/** Starts `tokenintel sandbox` and resolves with its URL and key. */
function sandbox(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0", ...args], {
      env,
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

/** Wall time of one run of a command, in ms; stdout to /dev/null unless captured. */
function time(cmd, args, { capture = false, shell = false } = {}) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    env,
    stdio: ["ignore", capture ? "pipe" : "ignore", "pipe"],
    shell,
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return { ms, stdout: capture ? r.stdout.toString() : "", stderr: r.stderr.toString() };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Runs a and b alternately `runs` times (after one warm-up each); medians in ms. */
function sideBySide(a, b, runs = RUNS) {
  a();
  b();
  const ta = [];
  const tb = [];
  for (let i = 0; i < runs; i++) {
    ta.push(a().ms);
    tb.push(b().ms);
  }
  return [median(ta), median(tb)];
}

/** The sandbox's counters. Each call opens one connection of its own (and the counters count it). */
function stats(url, reset = false) {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/_sandbox/stats${reset ? "?reset=1" : ""}`, { agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d) => (body += d));
        res.on("end", () => resolve(JSON.parse(body)));
      })
      .on("error", reject);
  });
}

const rows = [];
const row = (scenario, value, baseline, ratio, bound, pass) =>
  rows.push({ scenario, value, baseline, ratio, bound, pass });
const fmtMs = (ms) => `${ms.toFixed(0)} ms`;

const cli =
  (...args) =>
  () =>
    time(process.execPath, [BIN, ...args]);
const node0 = () => time(process.execPath, ["-e", "0"]);

console.error(
  `tokenintel benchmark: ${RUNS} runs a row, Node ${process.version}, ${process.platform}/${process.arch}`,
);
const [s0, s50, big] = await Promise.all([
  sandbox([]),
  sandbox(["--latency", String(LATENCY)]),
  sandbox(["--tokens", "100000", "--directory-style", "envelope"]),
]);
const withKey = (s) => ["--base-url", s.url, "--api-key", s.key, "--concurrency", String(CONCURRENCY)];

// 1. Start-up.
{
  const [v, n] = sideBySide(cli("--version"), node0);
  row("tokenintel --version", fmtMs(v), `${fmtMs(n)} (node -e 0)`, v / n, "≤ 1.40", v / n <= 1.4);
  const [h, n2] = sideBySide(cli("market", "--help"), node0);
  row("tokenintel market --help", fmtMs(h), `${fmtMs(n2)} (node -e 0)`, h / n2, "≤ 1.40", h / n2 <= 1.4);
}

// 2. One request: two tickers, no added latency, against a minimal fetch-and-print script.
const dir = JSON.parse(
  time(process.execPath, [BIN, ...withKey(s0), "directory", "-c", "base", "--json"], { capture: true })
    .stdout,
);
const plain = dir.map((r) => r.symbol).filter((s) => /^[A-Z0-9]+$/.test(s));
let startup;
{
  const [a, b] = plain;
  const url = `${s0.url}/v1/crypto-market/?chain=base&token_tickers=${a},${b}&api_key=${s0.key}`;
  const script = join(work, "fetch-once.mjs");
  writeFileSync(
    script,
    `const r = await fetch(${JSON.stringify(url)}); process.stdout.write(await r.text());\n`,
  );
  const [t, f] = sideBySide(
    cli(...withKey(s0), "market", "--chain", "base", "--tickers", `${a},${b}`, "--json"),
    () => time(process.execPath, [script]),
  );
  startup = t;
  row(
    "market --tickers A,B --json (no latency)",
    fmtMs(t),
    `${fmtMs(f)} (node fetch script)`,
    t / f,
    "≤ 1.50",
    t / f <= 1.5,
  );
}

const curlLoop = (urls) => {
  const script = join(work, `curl-${urls.length}.sh`);
  writeFileSync(script, `${urls.map((u) => `curl -sf -o /dev/null '${u}' || exit 1`).join("\n")}\n`);
  return () => time("bash", [script]);
};
const hasCurl = spawnSync("curl", ["--version"], { stdio: "ignore" }).status === 0;

/** The two bounds of a 50 ms-latency row: against the ideal, and against a sequential curl loop. */
function latencyRows(label, ours, urls, ideal) {
  if (!hasCurl) return;
  const [t, c] = sideBySide(ours, curlLoop(urls), Math.max(5, Math.ceil(RUNS / 2)));
  row(label, fmtMs(t), `${fmtMs(ideal)} (ideal)`, t / ideal, "≤ 1.25", t / ideal <= 1.25);
  row(
    "  … against a sequential curl loop",
    fmtMs(t),
    `${fmtMs(c)} (curl ×${urls.length})`,
    c / t,
    "≥ 3.50× faster",
    c / t >= 3.5,
  );
}

// 3. 1,000 tokens over 34 market pages, 50 ms latency.
{
  const ours = cli(...withKey(s50), "market", "--chain", "base", "--json");
  const pages = Array.from(
    { length: 34 },
    (_, i) => `${s50.url}/v1/crypto-market/?chain=base&page=${i + 1}&api_key=${s50.key}`,
  );
  latencyRows(
    "market: 1,000 tokens, 34 pages, 50 ms",
    ours,
    pages,
    startup + LATENCY * (1 + Math.ceil(33 / CONCURRENCY)),
  );
  // Connections and requests in flight, from the sandbox's own counters.
  await stats(s50.url, true);
  ours();
  const st = await stats(s50.url);
  st.connections -= 1; // the stats request's own connection
  row(
    "  connections opened / most in flight",
    `${st.connections} / ${st.maxInFlight}`,
    `concurrency ${CONCURRENCY}`,
    st.connections / CONCURRENCY,
    `≤ ${CONCURRENCY}`,
    st.connections <= CONCURRENCY && st.maxInFlight <= CONCURRENCY,
  );
}

// 4. 300 tickers: 10 chunks of 30, 50 ms latency.
{
  const tickers = plain.slice(0, 300);
  const ours = cli(...withKey(s50), "market", "--chain", "base", "--tickers", tickers.join(","), "--json");
  const urls = Array.from(
    { length: 10 },
    (_, i) =>
      `${s50.url}/v1/crypto-market/?chain=base&token_tickers=${tickers.slice(i * 30, i * 30 + 30).join(",")}&page=1&api_key=${s50.key}`,
  );
  latencyRows(
    "market: 300 tickers, 10 chunks, 50 ms",
    ours,
    urls,
    startup + LATENCY * Math.ceil(10 / CONCURRENCY),
  );
}

// 5. directory --ndjson over 100,000 tokens (1,000 pages), no latency, to /dev/null.
{
  const rssFile = join(work, "rss.cjs");
  writeFileSync(
    rssFile,
    'process.on("exit", () => process.stderr.write(`\\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\\n`));\n',
  );
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const r = time(process.execPath, [
      "-r",
      rssFile,
      BIN,
      ...withKey(big),
      "directory",
      "--chain",
      "base",
      "--ndjson",
    ]);
    runs.push({ ms: r.ms, rssKb: Number(/BENCH_MAX_RSS_KB=(\d+)/.exec(r.stderr)?.[1]) });
  }
  const ms = median(runs.map((r) => r.ms));
  const rssMb = Math.max(...runs.map((r) => r.rssKb)) / 1024;
  const rate = 100_000 / (ms / 1000);
  row(
    "directory --ndjson: 100,000 tokens, 1,000 pages",
    fmtMs(ms),
    "",
    rate / 50_000,
    "≥ 50,000 rec/s",
    rate >= 50_000,
  );
  rows[rows.length - 1].value = `${fmtMs(ms)} = ${Math.round(rate).toLocaleString("en-US")} rec/s`;
  row("  peak RSS", `${rssMb.toFixed(0)} MB`, "", rssMb / 120, "≤ 120 MB", rssMb <= 120);
}

const header = ["scenario", "median", "baseline median", "ratio", "bound", "result"];
const table = rows.map((r) => [
  r.scenario,
  r.value,
  r.baseline,
  r.ratio.toFixed(2),
  r.bound,
  r.pass ? "pass" : "FAIL",
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const t of table) console.log(line(t));
if (!hasCurl) console.log("(curl not found: the curl-loop rows were skipped)");
for (const c of children) c.kill("SIGTERM");
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
