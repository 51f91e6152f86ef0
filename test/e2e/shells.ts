import { spawn, spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect } from "vitest";
import { useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";
import { sh } from "./terminal-session.js";

// Real shells completing the built binary: bash, zsh and fish run the scripts `tokenintel completion
// <shell>` prints, with the binary on PATH under the name a user types.

/** Whether `shell` is installed on this machine. */
export const has = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

/** Runs `program` with `args` in `env`; resolves with its exit code and output. */
export function shell(
  program: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The binary on PATH as `tokenintel` for a file's tests (a folder of its own, linked before them),
 * with `configDir` as the config folder of every shell: `shellEnv` gives a shell's environment,
 * `bashComplete` runs the generated bash completion, and `lastCompopt` says what its last run asked
 * of compopt.
 */
export function useShells(configDir: string) {
  const binDir = { path: useServers().folder("tokenintel-ci-bin-") };
  beforeAll(() => {
    // The scripts call `tokenintel` as the user typed it: put the built binary on PATH under that name.
    symlinkSync(BIN, join(binDir.path, "tokenintel"));
  });

  /** The environment a user's shell would have: the binary on PATH, the test's config and cache folders. */
  function shellEnv(cacheDir: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...baseEnv(configDir),
      PATH: `${binDir.path}:${process.env.PATH}`,
      TOKENINTEL_CACHE_DIR: cacheDir,
      ...extra,
    };
  }

  /**
   * The script `tokenintel completion bash` prints, written by the binary once for a file's
   * completions (it is the same each time; the README's `source <(...)` form runs in examples.test.ts).
   */
  let bashScript: Promise<string> | undefined;
  function bashCompletionScript(env: Record<string, string>): Promise<string> {
    bashScript ??= (async () => {
      const file = join(binDir.path, "completion.bash");
      const r = await shell("sh", ["-c", 'tokenintel completion bash > "$1"', "sh", file], env);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      return file;
    })();
    return bashScript;
  }

  /** Runs the generated bash completion in a real bash for the words typed so far (the last one under the cursor). */
  async function bashComplete(words: string[], env: Record<string, string>): Promise<string[]> {
    const code = [
      `source ${sh(await bashCompletionScript(env))}`,
      // Outside a real completion compopt fails; here it says what it was asked, after the replies.
      'compopt() { echo "COMPOPT $1 $2" >> "${TMPDIR:-/tmp}/compopt.$$"; }',
      'trap \'[[ -f "${TMPDIR:-/tmp}/compopt.$$" ]] && cat "${TMPDIR:-/tmp}/compopt.$$" && rm -f "${TMPDIR:-/tmp}/compopt.$$"\' EXIT',
      `COMP_WORDS=(${words.map(sh).join(" ")})`,
      `COMP_CWORD=${words.length - 1}`,
      "_tokenintel",
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join("\n");
    const r = await shell("bash", ["-c", code], env);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n").filter(Boolean);
    lastCompopt.splice(0, lastCompopt.length, ...lines.filter((l) => l.startsWith("COMPOPT ")));
    return lines.filter((l) => !l.startsWith("COMPOPT "));
  }

  /** What the last bashComplete asked of compopt (e.g. "COMPOPT -o nospace"). */
  const lastCompopt: string[] = [];

  return { shellEnv, bashComplete, lastCompopt };
}
