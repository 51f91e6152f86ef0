import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { showsOutput } from "../../scripts/docs/command-page.js";
import { runConsoleLine, shownOutput } from "../../scripts/docs/console.js";
import { inProcessPlan } from "../../scripts/docs/lines.js";
import { fullProgram } from "../../src/program.js";
import { run as runInProcess } from "../commands/harness.js";
import { useSandbox, useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";

// Every example a user can copy, from every --help and from README.md's code blocks, run as written
// against the sandbox: it must exit 0 and show data. Examples that name --sandbox run as they are;
// the others run against a sandbox started here, reached through TOKENINTEL_BASE_URL and
// TOKENINTEL_API_KEY, the way a logged-in user's would. Each runs in a temporary folder that is also
// $HOME, so an example that writes a file writes it there. The tokenintel command of a line runs
// in-process through run(), its words as bash would split them, when the rest of the line is a
// command piped into it, or a pipe or `&&` after it: those parts run through bash, with its output
// or input, under pipefail. A line bash has to expand or redirect around tokenintel ($, @file, >,
// a server, a terminal) runs whole through bash, with `tokenintel` the built binary.

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

/** An example of a page, and for a console block the output the page shows for it. */
interface DocExample extends Example {
  shown?: string;
}

/** A line of a code block that runs tokenintel (comments and setup lines left out). */
function runsTokenintel(raw: string): string | undefined {
  // `npm ci && npx tokenintel ...`: the install step is the reader's; the example is the rest.
  const line = raw.replace(/^npm ci && (?=npx tokenintel )/, "").trim();
  return /^(npx )?tokenintel /.test(line) || /^(echo|printf|source) .*\btokenintel /.test(line)
    ? line
    : undefined;
}

/**
 * The examples of a page: the lines of its code blocks that run tokenintel, the `$` line of each
 * console block (with the output shown under it), and the `tokenintel ...` code of the table cells
 * of the README and the reference pages (their tables of commands; elsewhere a table names them).
 */
function examplesInMarkdown(text: string, file: string): DocExample[] {
  const found: DocExample[] = [];
  for (const m of text.matchAll(/^```console\n\$ (.*)\n?([\s\S]*?)^```$/gm))
    found.push({ source: `${file}:console`, line: m[1]!, shown: m[2]!.replace(/\n$/, "") });
  let block: string | undefined;
  text.split("\n").forEach((raw, i) => {
    const source = `${file}:${i + 1}`;
    if (/^```/.test(raw)) {
      block = block === undefined ? raw.slice(3) : undefined;
      return;
    }
    if (block === "console") return;
    if (block !== undefined) {
      const line = runsTokenintel(raw);
      if (line) found.push({ source, line });
    } else if (raw.startsWith("|") && (file === "README.md" || file.startsWith("docs/reference/"))) {
      for (const cell of raw.matchAll(/`(tokenintel [^`]+)`/g))
        found.push({ source, line: cell[1]!.replace(/\\\|/g, "|").replace(/\s+#.*$/, "") });
    }
  });
  return found;
}

/** Every page a reader is shown examples in: the README, docs/ and the agent skill. */
function docPages(): string[] {
  const docs = readdirSync(new URL("../../docs/", import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs.sort(), "skills/tokenintel/SKILL.md"];
}

function commandsOf(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [[...path, c.name()], ...commandsOf(c, [...path, c.name()])]);
}

const home = { path: useServers().folder("tokenintel-examples-") };
const sandbox = useSandbox();
const helpExamples: Example[] = [];
const docExamples = docPages().flatMap((file) =>
  examplesInMarkdown(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"), file),
);
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

/**
 * Runs one example line through bash with `tokenintel` (and `npx tokenintel`) meaning the built
 * binary. A `sandbox` example is a server: it passes when it prints its URL, then is stopped.
 */
async function runExample(example: Example): Promise<Outcome> {
  let line = example.line;
  // A process substitution for a shell's startup file: what matters is the script it prints.
  line = line.replace(/^source <\((.*)\)\s*(#.*)?$/, "$1");
  if (!HAVE_JQ) line = line.replace(/\s*\|\s*jq\b.*$/, "");
  const isSandbox = /^(npx )?tokenintel sandbox\b/.test(line) && !/--help/.test(line);
  const isHttp = /^(npx )?tokenintel\b.*\bmcp --http\b/.test(line) && !/--help/.test(line);
  const isServer = isSandbox || isHttp;
  // A server example on a fixed port would collide with whatever else runs here; a free port is
  // the same example otherwise.
  if (isSandbox) line = /--port \d+/.test(line) ? line.replace(/--port \d+/, "--port 0") : `${line} --port 0`;
  if (isHttp) line = line.replace(/--http ((?:\[[^\]]+\]|[\w.]+):)?\d+/, (_, host = "") => `--http ${host}0`);
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
  const plan = isServer || interactive ? undefined : inProcessPlan(line);
  if (plan) {
    const env = { ...baseEnv(join(home.path, "config")), ...own };
    const shell = (text: string, input: string) =>
      spawnSync("bash", ["-c", `set -o pipefail\n${text}`], { cwd: home.path, env, input, encoding: "utf8" });
    const fed = plan.before === undefined ? undefined : shell(plan.before, "");
    const r = await runInProcess(plan.words, join(home.path, "config"), {
      env: own,
      input: fed?.stdout,
      timeoutMs: 30_000,
    });
    let { stdout, stderr } = r;
    // A feeder killed by a signal (status null) failed too.
    let code = r.code !== 0 || fed === undefined || fed.status === 0 ? r.code : (fed.status ?? 1);
    if (plan.after && (plan.after.join === "|" || code === 0)) {
      const then = shell(plan.after.text, plan.after.join === "|" ? stdout : "");
      stdout = plan.after.join === "|" ? then.stdout : stdout + then.stdout;
      stderr += then.stderr;
      // set -o pipefail: a pipeline fails with its last command to fail.
      code = then.status !== 0 ? then.status : code;
    }
    return { code, stdout, stderr, written: written() };
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
    // A server passes once it says where it listens: the sandbox on stdout, mcp --http on stderr.
    const ready = () => /url: http/.test(stdout) || /^listening http:/m.test(stderr);
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (isServer && ready()) process.kill(-child.pid!, "SIGINT");
      if (interactive && /API key/.test(stdout)) child.stdin.write(`${sandbox.apiKey}\r`);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (isServer && ready()) process.kill(-child.pid!, "SIGINT");
    });
    // bash runs detached, in a group of its own: the whole group goes (a server it started too).
    const timer = setTimeout(() => process.kill(interactive ? child.pid! : -child.pid!, "SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: isServer && ready() ? 0 : code, stdout, stderr, written: written() });
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
  // jq's null for a field the answer lacks is no data.
  const shown =
    !/^(null\s*)*$/.test(outcome.stdout) ||
    outcome.written.length > 0 ||
    SILENT.test(example.line) ||
    // A server says where it listens (mcp --http, on stderr), and that is all it shows.
    /^listening http:/m.test(outcome.stderr) ||
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

  it("every example in README.md, docs/ and the agent skill runs against the sandbox and shows data", async () => {
    const pages = new Set(docExamples.map((e) => e.source.replace(/:.*$/, "")));
    expect([...pages]).toEqual(
      expect.arrayContaining(["README.md", "docs/reference/market.md", "skills/tokenintel/SKILL.md"]),
    );
    expect(docExamples.length).toBeGreaterThan(50);
    for (const { source, line } of docExamples)
      expect(line, source).not.toMatch(DOLLAR_TICKER_IN_DOUBLE_QUOTES);
    // A line --help shows was run by the test above; a console block's is run by the one below.
    const ran = new Set(helpExamples.map((e) => e.line));
    const failures: string[] = [];
    for (const example of docExamples) {
      if (example.shown !== undefined || ran.has(example.line)) continue;
      ran.add(example.line);
      const failure = await check(example);
      if (failure) failures.push(failure);
    }
    expect(failures.join("\n")).toBe("");
  }, 300_000);

  it("every console block of the docs shows what its line prints on the sandbox, at the docs' clock", async () => {
    // Without jq on this machine, the blocks that pipe into it are left to a machine that has it.
    const consoles = docExamples.filter(
      (e) => e.shown !== undefined && (HAVE_JQ || !/\|\s*jq\b/.test(e.line)),
    );
    expect(consoles.length).toBeGreaterThan(20);
    const failures: string[] = [];
    const outputs = new Map<string, Promise<{ code: number; output: string }>>();
    for (const { source, line, shown } of consoles) {
      if (!outputs.has(line)) outputs.set(line, runConsoleLine(line));
      const { code, output } = await outputs.get(line)!;
      if (code !== 0) failures.push(`${source}: ${line}\n    exit ${code}`);
      else if (shownOutput(output) !== shown)
        failures.push(`${source}: ${line}\n    shows:\n${shown}\n    prints:\n${shownOutput(output)}`);
    }
    expect(failures.join("\n"), "run `npm run docs`").toBe("");
  }, 300_000);

  it("a reference page shows the output of every example that has one to show", async () => {
    const quiet = docExamples.filter(
      (e) => e.source.startsWith("docs/reference/") && e.shown === undefined && showsOutput(e.line),
    );
    for (const { source, line } of quiet) {
      const { code, output } = await runConsoleLine(line);
      expect({ code, output }, `${source}: ${line} (run \`npm run docs\`)`).toEqual({ code: 0, output: "" });
    }
  });
});

describe("the line splitter (which part of an example runs in-process)", () => {
  it("splits words, quotes, pipes, && and comments as bash does, and leaves the rest to bash", () => {
    expect(inProcessPlan("tokenintel market -c base | jq '.[] | .id'  # ids")).toEqual({
      words: ["market", "-c", "base"],
      before: undefined,
      after: { join: "|", text: "jq '.[] | .id'  # ids" },
    });
    expect(inProcessPlan("printf '%s' x | npx tokenintel ask 'is $BAKO safe?' && echo ok")).toEqual({
      words: ["ask", "is $BAKO safe?"],
      before: "printf '%s' x",
      after: { join: "&&", text: "echo ok" },
    });
    for (const line of [
      "tokenintel market || echo failed",
      "tokenintel market; echo done",
      "tokenintel market -c {base,solana}",
      'tokenintel ask "how is $BAKO"',
      "tokenintel market --tickers @mints.txt",
      "tokenintel market > out.json",
      "tokenintel market | tokenintel check",
      "echo x | jq . | tokenintel market",
    ])
      expect(inProcessPlan(line), line).toBeUndefined();
  });

  it("a line fails when the command piped into tokenintel fails, as under pipefail", async () => {
    const piped = await runExample({ source: "test", line: "false | tokenintel version" });
    expect(piped.code).toBe(1);
    const killed = await runExample({ source: "test", line: "sh -c 'kill -9 $$' | tokenintel version" });
    expect(killed.code).not.toBe(0);
    const after = await runExample({ source: "test", line: "tokenintel version | false" });
    expect(after.code).toBe(1);
  });
});
