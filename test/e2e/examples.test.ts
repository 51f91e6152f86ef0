import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { fullProgram } from "../../src/program.js";
import { run as runInProcess } from "../commands/harness.js";
import { useSandbox, useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";

// Every example a user can copy, from every --help and from README.md's code blocks, run as written
// through bash against the sandbox: it must exit 0 and show data. Examples that name --sandbox run
// as they are; the others run against a sandbox started here, reached through TOKENINTEL_BASE_URL and
// TOKENINTEL_API_KEY, the way a logged-in user's would. Each runs in a temporary folder that is also
// $HOME, so an example that writes a file writes it there. An example without shell syntax (no pipe,
// redirection, quoting of $, @file or server) runs in-process through run(), the words as bash would
// split them; the others run through bash with \`tokenintel\` the built binary.

interface Example {
  /** Where it was found: "market --help", "README.md:42". */
  source: string;
  line: string;
}

/** The `$ tokenintel ...` lines of a help text. */
function examplesInHelp(help: string): string[] {
  return help
    .split("\n")
    .map((l) => /^\s*\$ (.+)$/.exec(l)?.[1]?.trim())
    .filter((l): l is string => l !== undefined);
}

/** The command lines of README code blocks that run tokenintel (comments and setup lines left out). */
function examplesInReadme(text: string): Example[] {
  const found: Example[] = [];
  let inCode = false;
  text.split("\n").forEach((raw, i) => {
    if (/^```/.test(raw)) {
      inCode = !inCode;
      return;
    }
    if (!inCode) return;
    // `npm ci && npx tokenintel ...`: the install step is the reader's; the example is the rest.
    const line = raw.replace(/^npm ci && (?=npx tokenintel )/, "").trim();
    if (/^(npx )?tokenintel /.test(line) || /^(echo|printf|source) .*\btokenintel /.test(line))
      found.push({ source: `README.md:${i + 1}`, line });
  });
  return found;
}

function commandsOf(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [[...path, c.name()], ...commandsOf(c, [...path, c.name()])]);
}

const home = { path: useServers().folder("tokenintel-examples-") };
const sandbox = useSandbox();
const helpExamples: Example[] = [];
const readmeExamples = examplesInReadme(readFileSync(new URL("../../README.md", import.meta.url), "utf8"));
const HAVE_JQ = spawnSync("sh", ["-c", "command -v jq"]).status === 0;
// A throwaway wallet for the examples that pay (the sandbox settles on a simulated chain).
const WALLET = `0x${"5a".repeat(32)}`;

beforeAll(async () => {
  const program = await fullProgram();
  const helps = await Promise.all(
    [[], ...commandsOf(program)].map(async (path) => ({
      path,
      result: await runInProcess([...path, "--help"], join(home.path, "help-config")),
    })),
  );
  for (const { path, result } of helps) {
    for (const line of examplesInHelp(result.stdout))
      helpExamples.push({ source: `${["tokenintel", ...path].join(" ")} --help`, line });
  }
  // Files the README's examples read: mints.txt, one Solana mint a line.
  const mints = await runInProcess(["directory", "-c", "solana", "--limit", "3", "--json"], home.path, {
    env: { TOKENINTEL_BASE_URL: sandbox.url, TOKENINTEL_API_KEY: sandbox.apiKey },
  });
  const addresses = (JSON.parse(mints.stdout) as Array<{ address?: string }>).map((r) => r.address ?? "");
  writeFileSync(join(home.path, "mints.txt"), `${addresses.join("\n")}\n`);
}, 60_000);

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Non-empty files the example wrote. */
  written: string[];
}

/** Files under `dir`, Node's compile cache (Node 22+, written by every run) left out. */
function filesIn(dir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === "node-compile-cache") continue;
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else sizes.set(p, s.mtimeMs * 1e6 + s.size);
    }
  };
  walk(dir);
  return sizes;
}

/** The words after `tokenintel` of a line bash would pass to it as they are, else undefined. */
function plainWords(line: string): string[] | undefined {
  const m = /^(?:npx )?tokenintel (.*)$/.exec(line);
  if (!m || /[|&;<>()$`*?~@\\#]/.test(m[1]!) || /^(sandbox|mcp)\b/.test(m[1]!)) return undefined;
  const words = m[1]!.match(/'[^']*'|"[^"]*"|[^\s'"]+/g) ?? [];
  // A word glued to a quote (--where='a b') is left to bash.
  if (words.join(" ") !== m[1]!.trim().replace(/\s+/g, " ")) return undefined;
  return words.map((w) => (/^(['"]).*\1$/.test(w) ? w.slice(1, -1) : w));
}

/**
 * Runs one example line through bash with `tokenintel` (and `npx tokenintel`) meaning the built
 * binary. A `sandbox` example is a server: it passes when it prints its URL, then is stopped.
 */
async function runExample(example: Example): Promise<Outcome> {
  let line = example.line;
  // A process substitution for a shell's startup file: what matters is the script it prints.
  line = line.replace(/^source <\((.*)\)\s*(#.*)?$/, "$1");
  if (!HAVE_JQ) line = line.replace(/\s*\|\s*jq\b.*$/, "");
  const isServer = /^(npx )?tokenintel sandbox\b/.test(line) && !/--help/.test(line);
  // A server example on a fixed port would collide with whatever else runs here; a free port is
  // the same example otherwise.
  if (isServer) line = /--port \d+/.test(line) ? line.replace(/--port \d+/, "--port 0") : `${line} --port 0`;
  // An example that names the sandbox's well-known URL talks to the one started here.
  line = line.replace(/http:\/\/127\.0\.0\.1:4020/g, sandbox.url);
  for (const m of line.matchAll(/>\s*(~\/\S+|[\w./-]+\/)[\w.-]+/g)) {
    const target = m[0].replace(/^>\s*/, "").replace(/^~\//, `${home.path}/`);
    mkdirSync(join(target, ".."), { recursive: true });
  }
  const script = [
    "set -o pipefail",
    `tokenintel() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }`,
    'npx() { if [ "$1" = tokenintel ]; then shift; tokenintel "$@"; else command npx "$@"; fi; }',
    "export -f tokenintel npx",
    line,
  ].join("\n");
  const before = filesIn(home.path);
  const own: Record<string, string | undefined> = {
    HOME: home.path,
    // Named, so that a run in-process (which reads no $HOME of its own) keeps it where bash's would.
    TOKENINTEL_CACHE_DIR: join(home.path, ".cache", "tokenintel"),
    TOKENINTEL_BASE_URL: sandbox.url,
    TOKENINTEL_API_KEY: /--pay\b|--dry-run\b/.test(line) ? undefined : sandbox.apiKey,
    TOKENINTEL_WALLET_KEY: WALLET,
    KEY: sandbox.apiKey,
  };
  const written = () => {
    const after = filesIn(home.path);
    return [...after].filter(([p, v]) => before.get(p) !== v && statSync(p).size > 0).map(([p]) => p);
  };
  // `auth login` without --with-token asks on a terminal: give it one (below), and type the key.
  const interactive = /\bauth login\b/.test(line) && !/--with-token/.test(line);
  const words = plainWords(line);
  if (words && !isServer && !interactive) {
    const r = await runInProcess(words, join(home.path, "config"), { env: own, timeoutMs: 30_000 });
    return { code: r.code, stdout: r.stdout, stderr: r.stderr, written: written() };
  }
  const env: Record<string, string | undefined> = { ...baseEnv(join(home.path, "config")), ...own };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return new Promise((resolve, reject) => {
    const child = interactive
      ? spawn("script", ["-qfec", `bash -c ${shellQuote(script)}`, "/dev/null"], {
          cwd: home.path,
          env,
          stdio: ["pipe", "pipe", "pipe"],
        })
      : spawn("bash", ["-c", script], {
          cwd: home.path,
          env,
          stdio: ["pipe", "pipe", "pipe"],
          detached: true,
        });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (isServer && /url: http/.test(stdout)) process.kill(-child.pid!, "SIGINT");
      if (interactive && /API key/.test(stdout)) child.stdin.write(`${sandbox.apiKey}\r`);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: isServer && /url: http/.test(stdout) ? 0 : code, stdout, stderr, written: written() });
    });
    if (!interactive) child.stdin.end();
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** `"how is $BAKO doing"`: the shell expands $BAKO (to nothing) before tokenintel sees it. */
const DOLLAR_TICKER_IN_DOUBLE_QUOTES = /"[^"]*\s\$[A-Z][^"]*"|"\$[A-Z]+\s[^"]*"/;

/** Commands that change a setting and, like `git config`, say nothing when they succeed. */
const SILENT = /\btokenintel (config (set|unset)|auth logout|cache clear)\b/;

async function check(example: Example): Promise<string | undefined> {
  const outcome = await runExample(example);
  // A dry run's plan is a status report, on stderr.
  const shown =
    outcome.stdout.trim() !== "" ||
    outcome.written.length > 0 ||
    SILENT.test(example.line) ||
    (/--dry-run\b/.test(example.line) && /would pay/.test(outcome.stderr));
  if (outcome.code === 0 && shown) return undefined;
  return `${example.source}: ${example.line}\n    exit ${outcome.code}${shown ? "" : ", no output"}; stderr: ${outcome.stderr.trim().slice(0, 300)}`;
}

describe("examples", () => {
  it("every --help has examples, each fit for its command", () => {
    expect(helpExamples.length).toBeGreaterThan(20);
    for (const { source, line } of helpExamples) {
      const command = source
        .replace(/^tokenintel /, "")
        .replace(/ --help$/, "")
        .split(" ")[0]!;
      // An example under `market --help` runs market (or pipes into it).
      if (command !== "tokenintel") expect(line, source).toMatch(new RegExp(`tokenintel ${command}\\b`));
      // A $ inside double quotes is the shell's, not the question's.
      expect(line, source).not.toMatch(DOLLAR_TICKER_IN_DOUBLE_QUOTES);
    }
  });

  it("every example in every --help runs against the sandbox and shows data", async () => {
    const failures: string[] = [];
    for (const example of helpExamples) {
      const failure = await check(example);
      if (failure) failures.push(failure);
    }
    expect(failures.join("\n")).toBe("");
  }, 300_000);

  it("every example in README.md runs against the sandbox and shows data", async () => {
    expect(readmeExamples.length).toBeGreaterThan(10);
    for (const { source, line } of readmeExamples)
      expect(line, source).not.toMatch(DOLLAR_TICKER_IN_DOUBLE_QUOTES);
    const failures: string[] = [];
    for (const example of readmeExamples) {
      const failure = await check(example);
      if (failure) failures.push(failure);
    }
    expect(failures.join("\n")).toBe("");
  }, 300_000);
});
