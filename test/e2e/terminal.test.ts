import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import type { SandboxServer } from "../../src/sandbox/server.js";
import { run } from "../commands/harness.js";
import { useSandbox, useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";
import { launchPty } from "./terminal-session.js";

// What a person sees: the built binary in a real pseudo-terminal (util-linux `script`).

const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox();
const slow = useSandbox({ latencyMs: 60 });
const live = useSandbox({ liveSeconds: 1 });

/** Five virtuals tokens on Base: the table most of these tests look at. */
const FIVE = ["market", "-c", "base", "-e", "virtuals", "--limit", "5"];

const sh = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

function inPty(line: string, env: Record<string, string> = {}) {
  const pty = launchPty(line, {
    ...baseEnv(dir.path),
    COLUMNS: "100",
    LINES: "40",
    TERM: "xterm-256color",
    ...env,
  });
  return {
    ...pty,
    waitFor: (test: (s: string) => boolean, _what: string, timeoutMs = 15_000) =>
      pty.waitFor(test, timeoutMs),
  };
}

const against = (server: SandboxServer) => ["--base-url", server.url, "--api-key", server.apiKey];
const tokenintel = (server: SandboxServer, args: string[]) =>
  `exec ${[process.execPath, BIN, ...against(server), ...args].map(sh).join(" ")}`;
const runPiped = (args: string[], env: Record<string, string> = {}) =>
  run([...against(sandbox), ...args], dir.path, { env });

describe("tables in a terminal", () => {
  it("are coloured on a terminal: gains green, losses red, RSI flagged", async () => {
    const s = inPty(tokenintel(sandbox, ["market", "-c", "base", "-e", "virtuals", "--limit", "12"]));
    expect(await s.exited).toBe(0);
    const screen = s.screen();
    expect(screen).toMatch(/SYMBOL\s*\x1b\[22m\s+\x1b\[1mNAME/);
    expect(screen).toMatch(/\x1b\[32m\s*\+\d+\.\d\d%/);
    expect(screen).toMatch(/\x1b\[31m\s*-\d+\.\d\d%/);
    expect(screen).toMatch(/\d+\.\d (OB|OS)/);
    // Fits the 100 columns of this terminal.
    for (const line of stripVTControlCharacters(screen).split(/\r?\n/))
      expect(line.length).toBeLessThanOrEqual(100);
  });

  it("are not coloured with --color never, NO_COLOR or TERM=dumb", async () => {
    for (const [args, env] of [
      [["--color", "never"], {}],
      [[], { NO_COLOR: "1" }],
      [[], { TERM: "dumb" }],
    ] as Array<[string[], Record<string, string>]>) {
      const s = inPty(tokenintel(sandbox, [...args, ...FIVE]), env);
      expect(await s.exited).toBe(0);
      expect(s.screen()).toContain("SYMBOL");
      expect(s.screen()).not.toMatch(/\x1b\[/);
    }
  });

  it("--color always colours even through a pipe; auto does not", async () => {
    const always = await runPiped(["--color", "always", ...FIVE, "-o", "table"]);
    expect(always.stdout).toMatch(/\x1b\[3[12]m/);
    const auto = await runPiped([...FIVE, "-o", "table"]);
    expect(auto.stdout).not.toMatch(/\x1b\[/);
    // Piped, times are ISO; on a terminal they are relative.
    const wide = await runPiped([
      "market",
      "-c",
      "base",
      "--limit",
      "2",
      "-o",
      "table",
      "--columns",
      "token_info.symbol,last_updated_at",
    ]);
    expect(wide.stdout).toMatch(/2026-11-20T\d\d:\d\d:\d\d\.000Z/);
    const tty = inPty(
      tokenintel(sandbox, [
        "market",
        "-c",
        "base",
        "--limit",
        "2",
        "--columns",
        "token_info.symbol,last_updated_at",
      ]),
    );
    expect(await tty.exited).toBe(0);
    expect(tty.screen()).toMatch(/\d+[smhd] ago/);
  });

  it("a slow first answer is said on stderr, then erased (a silent terminal looks hung)", async () => {
    const sluggish = await servers.sandbox({ latencyMs: 1_600 });
    const out = join(dir.path, "waiting.json");
    const s = inPty(
      `${tokenintel(sluggish, ["market", "-c", "base", "--limit", "1", "--json"])} > ${sh(out)}`,
    );
    expect(await s.exited).toBe(0);
    expect(s.screen()).toContain("waiting for the first answer…");
    expect(s.screen()).toMatch(/\r\x1b\[2K$/);
    expect(readFileSync(out, "utf8")).not.toContain("waiting");
  });

  it("shows progress on stderr only, and erases it", async () => {
    const out = join(dir.path, "progress.json");
    const s = inPty(`${tokenintel(slow, ["market", "-c", "base", "--json"])} > ${sh(out)}`);
    expect(await s.exited).toBe(0);
    expect(s.screen()).toMatch(/page \d+ of 34 · [\d,]+ records/);
    expect(s.screen()).toMatch(/\r\x1b\[2K$/);
    const json = readFileSync(out, "utf8");
    expect(json).not.toMatch(/\x1b|page \d+ of/);
    expect(JSON.parse(json)).toHaveLength(1000);
  });

  it("renders the ask answer's markdown, then a table of its tokens", async () => {
    const token = sandbox.data.list("base", undefined)[40]!;
    const s = inPty(tokenintel(sandbox, ["ask", `how is $${token.symbol}?`, "--chain", "base"]));
    expect(await s.exited).toBe(0);
    const screen = s.screen();
    expect(screen).toContain("\x1b[1m\x1b[4mSandbox answer");
    expect(screen).not.toMatch(/## |\*\*/);
    expect(screen).toMatch(/• \x1b\[1m/);
    expect(screen).toMatch(/TICKER[\s\S]*NAME[\s\S]*PRICE/);
  });

  it("market --view risk shows flags a person can act on", async () => {
    const r = await runPiped(
      ["market", "-c", "base", "-e", "virtuals", "--limit", "30", "--view", "risk", "-o", "table"],
      { COLUMNS: "160" },
    );
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^SYMBOL\s+TOP10\s+SOLD\s+SOLD %\s+BUNDLES\s+BUNDLE %\s+FRESH\s+F100 HOLD\s+HLD 24H\s+FLAGS$/,
    );
    expect(r.stdout).toMatch(/DEV SOLD \d+%/);
    expect(r.stdout).toMatch(/BUNDLED \d+%/);
    expect(r.stdout).toMatch(/[✓✗]/);
  });
});

describe("--watch", () => {
  it("redraws in place, highlights what changed, and leaves a clean screen on Ctrl-C", async () => {
    const s = inPty(tokenintel(live, [...FIVE, "--watch", "1s"]));
    // The second frame is drawn in several writes: wait for its highlighted cells, not only its
    // header line (under load the header alone was seen, and the reverse-video check failed).
    await s.waitFor(
      (screen) => (screen.match(/Every 1s/g) ?? []).length >= 2 && screen.includes("\x1b[7m"),
      "two refreshes, the second with changed cells highlighted",
    );
    const screen = s.screen();
    expect(screen.startsWith("\x1b[?1049h")).toBe(true);
    expect(screen).toMatch(/\x1b\[H\x1b\[2J/);
    expect(screen).toMatch(/· [1-9]\d* changed/);
    expect(screen).toContain("\x1b[7m"); // changed cells in reverse video
    s.child.stdin.write("\x03");
    expect(await s.exited).toBe(130);
    expect(s.screen().trimEnd().endsWith("\x1b[?25h\x1b[?1049l")).toBe(true);
  });

  it("is slowed down to stay under the quota, and refuses a table into a pipe", async () => {
    const s = inPty(
      tokenintel(sandbox, [
        "--rate",
        "60/min",
        "market",
        "-c",
        "base",
        "-e",
        "virtuals",
        "--limit",
        "90",
        "--watch",
        "1s",
      ]),
    );
    await s.waitFor((screen) => screen.includes("Every "), "the first frame");
    expect(s.screen()).toMatch(/Every 3s \(slowed to 3s: 3 requests a refresh, 60\/min\)/);
    s.child.stdin.write("\x03");
    expect(await s.exited).toBe(130);
    // Into a pipe a watch streams NDJSON (test/e2e/data/watch.test.ts); a table it refuses.
    const piped = await runPiped(["market", "-c", "base", "--watch", "-o", "table"]);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/--watch into a pipe writes NDJSON lines/);
  });
});
