import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// A config store that cannot be used is named, never quoted, never silently ignored: a setting that
// cannot be used is named, in `config list` and by the command that would use it, never shown as if
// it were fine; a corrupt file is named, its text (which holds the key) never quoted.

const servers = useServers();
const dir = { path: servers.folder() };

function configWith(settings: Record<string, unknown>): string {
  const folder = join(dir.path, `cfg-${Math.random().toString(36).slice(2)}`);
  mkdirSync(folder, { mode: 0o700 });
  chmodSync(folder, 0o700);
  writeFileSync(join(folder, "config.json"), JSON.stringify({ settings }), { mode: 0o600 });
  return folder;
}

describe("invalid settings", () => {
  it("config set names the bad value as a flag's error does, and stores nothing", async () => {
    const folder = configWith({});
    for (const [key, value, words] of [
      ["daily-cap", "abc", "expected an amount such as 0.01 (at most 6 decimals)"],
      ["retries", "many", "expected a whole number of 0 or more"],
      ["timeout", "soon", "expected a span such as 30s"],
    ] as const) {
      const r = await run(["config", "set", key, value], folder);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^tokenintel: ${key}: ${words.replace(/[()]/g, "\\$&")}.*, got "${value}"\n$`),
      );
    }
    expect(JSON.parse(readFileSync(join(folder, "config.json"), "utf8"))).toEqual({ settings: {} });
    // From the environment, the variable named and its value.
    const env = await run(["--sandbox", "market", "-c", "base", "--pay", "--limit", "1"], folder, {
      env: { TOKENINTEL_DAILY_CAP: "abc", TOKENINTEL_WALLET_KEY: `0x${"5a".repeat(32)}` },
    });
    expect(env.code, env.stderr).toBe(2);
    expect(env.stderr).toContain(
      'TOKENINTEL_DAILY_CAP: expected an amount such as 0.01 (at most 6 decimals), got "abc"',
    );
  });

  it("config list marks a bad value from the file or the environment, with the check's words", async () => {
    const folder = configWith({ chain: 5, output: "xml", timeout: "30s" });
    const r = await run(["config", "list"], folder, { env: { TOKENINTEL_RETRIES: "many" } });
    expect(r.code, r.stderr).toBe(0);
    const line = (key: string) => r.stdout.split("\n").find((l) => l.startsWith(`${key} `))!;
    expect(line("chain")).toMatch(
      /^chain\s+5\s+\(config\)\s+INVALID: unknown chain "5" \(expected base, solana\)$/,
    );
    expect(line("output")).toMatch(/\(config\)\s+INVALID: unknown output format "xml"/);
    expect(line("retries")).toMatch(
      /^retries\s+many\s+\(env TOKENINTEL_RETRIES\)\s+INVALID: expected a whole number/,
    );
    expect(line("timeout")).not.toContain("INVALID");
  });

  it("a command that would use a value that is not text exits 2 naming the setting", async () => {
    const folder = configWith({ chain: 5 });
    const r = await run(["market", "--sandbox", "--limit", "1"], folder);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tokenintel: config chain: unknown chain "5" (expected base, solana)\n');
  });
});

describe("a malformed config file is named, never silently ignored", () => {
  it("TOKENINTEL_OUTPUT=xml: config list marks the value from the environment", async () => {
    const r = await run(["config", "list"], configWith({}), { env: { TOKENINTEL_OUTPUT: "xml" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /\noutput\s+xml\s+\(env TOKENINTEL_OUTPUT\)\s+INVALID: unknown output format "xml" \(expected table, json, ndjson, csv\)\n/,
    );
  });

  it("a name that is no setting is listed as invalid, and config unset removes it", async () => {
    const folder = configWith({ chian: "base", chain: "base" });
    const list = await run(["config", "list"], folder);
    expect(list.stdout).toMatch(
      /\nchian\s+\(not shown\)\s+\(config\)\s+INVALID: not a setting \(known: base-url, /,
    );
    expect((await run(["config", "unset", "chian"], folder)).code).toBe(0);
    const after = await run(["config", "list"], folder);
    expect(after.stdout).not.toContain("chian");
    expect(after.stdout).toMatch(/\nchain\s+base\s+\(config\)\n/);
  });

  it("settings that are not an object: config list says so; a command exits 2 naming the file", async () => {
    const folder = configWith({});
    writeFileSync(join(folder, "config.json"), JSON.stringify({ settings: ["base"] }));
    const list = await run(["config", "list"], folder);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /\nsettings\s+\(not shown\)\s+\(config\)\s+INVALID: not an object of settings/,
    );
    const r = await run(["market", "--sandbox", "-c", "base", "--limit", "1"], folder);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tokenintel: the config file ${join(folder, "config.json")}: "settings" is not an object of settings; fix it or remove it\n`,
    );
  });

  it("a stored key that is not text is named (exit 2), not taken for 'not logged in'", async () => {
    const folder = configWith({});
    writeFileSync(join(folder, "config.json"), JSON.stringify({ apiKey: 12345 }));
    const r = await run(["auth", "status"], folder);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^tokenintel: the config file .*config\.json: "apiKey" is not text; replace it with/,
    );
  });
});

describe("a corrupt config file is never quoted", () => {
  const STORED = "sk_live_STOREDSECRET_0123456789";
  it("names the file and what to do, in one line, exit 2, for every command that reads it", async () => {
    // A quote lost in an edit (Node's parser quotes the text around the error), and a cut file.
    for (const corrupt of [`{"apiKey": ${STORED}"}`, `{"apiKey": "${STORED}", "settings": {"chain": `]) {
      const home = servers.folder();
      const file = join(home, "config.json");
      writeFileSync(file, corrupt, { mode: 0o600 });
      for (const args of [
        ["auth", "status"],
        ["auth", "login", "--with-token", "--no-verify"],
        ["config", "list"],
        ["config", "set", "chain", "base"],
        ["market", "-c", "base"],
      ]) {
        const r = await run(args, home, { input: "new-key-0123456789" });
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr).toBe(`tokenintel: the config file ${file} is not valid JSON; fix it or remove it\n`);
        for (let i = 0; i + 6 <= STORED.length; i++) expect(r.stderr).not.toContain(STORED.slice(i, i + 6));
      }
      expect(readFileSync(file, "utf8")).toBe(corrupt); // nothing overwritten
    }
  });
});
