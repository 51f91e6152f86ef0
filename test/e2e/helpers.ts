import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/tokenintel.js", import.meta.url));

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Every stream any run produced, so a test can check a secret never appeared in any of them. */
export const transcript: string[] = [];

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/**
 * Variables of the machine running the tests that change every Node process it starts and that no
 * test needs: NODE_EXTRA_CA_CERTS (set on this machine) makes Node parse 220 KB of certificates at
 * each start, 50 ms of CPU a process (the tests make no TLS connection); NODE_OPTIONS could load
 * anything into the binary under test.
 */
const NODE_STARTUP = new Set(["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"]);

/** A clean environment: no key or settings leak in from the machine running the tests. */
export function baseEnv(configDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("TOKENINTEL_") || k === "NO_COLOR" || k === "FORCE_COLOR") continue;
    if (NODE_STARTUP.has(k)) continue;
    env[k] = v;
  }
  // A UTF-8 terminal, whatever the machine's locale: under LANG=C tables are drawn in ASCII.
  delete env.LC_ALL;
  delete env.LC_CTYPE;
  env.LANG = "C.UTF-8";
  env.TOKENINTEL_CONFIG_DIR = configDir;
  // The payment ledger of paid runs: beside the test's config, never in the user's data folder.
  env.TOKENINTEL_DATA_DIR = join(configDir, "data");
  return env;
}

/** Runs the built binary as a user would, as a subprocess. */
export function run(args: string[], configDir: string, options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = { ...baseEnv(configDir), ...options.env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    // A run that ends before it reads its input (`-V`) closes the pipe: the write's EPIPE is no failure.
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      transcript.push(stdout, stderr);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

export function tempDir(prefix = "tokenintel-test-"): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
