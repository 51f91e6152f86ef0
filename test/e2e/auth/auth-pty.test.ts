import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baseEnv, tempDir } from "../helpers.js";
import { commandLine, launchPty } from "../terminal-session.js";

// Runs the binary in a real pseudo-terminal (util-linux `script`), as a person at a terminal would.

const dir = tempDir();
afterAll(() => dir.remove());

function inPty(args: string[], env: Record<string, string> = {}) {
  return launchPty(commandLine(args), { ...baseEnv(dir.path), ...env, TERM: "xterm-256color" });
}

describe("in a terminal", () => {
  it("auth login asks for the key without echoing it", async () => {
    const key = `pty_key_${Math.random().toString(36).slice(2)}_zz`;
    const session = inPty(["auth", "login", "--no-verify"]);
    // Typed the moment the prompt shows, as a fast typist or a paste would: the prompt is written
    // only once echo is off, so nothing typed after it may appear (this raced before, under load).
    await session.waitFor(/API key \(input hidden\): /);
    session.child.stdin.write(`${key}\r`);
    expect(await session.exited).toBe(0);
    expect(session.screen()).not.toContain(key);
    expect(session.screen()).toMatch(/key saved to/);
    expect(JSON.parse(readFileSync(join(dir.path, "config.json"), "utf8")).apiKey).toBe(key);
  });
});
