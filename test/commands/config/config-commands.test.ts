import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// The config commands run in-process through run(): set, get, list, unset and path; what a stored
// setting changes; which of flag, environment, store and default wins, and `config list` saying
// which one did. The key is never shown.

const KEY = `sk_live_${Math.random().toString(36).slice(2)}_config_commands`;
const servers = useServers();
const freshDir = () => servers.folder();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

describe("the config commands", () => {
  it("config set/get/list/unset/path, and a stored chain and output become defaults", async () => {
    const home = freshDir();
    expect((await run(["config", "set", "chain", "solana"], home)).code).toBe(0);
    expect((await run(["config", "set", "output", "ndjson"], home)).code).toBe(0);
    expect((await run(["config", "get", "chain"], home)).stdout).toBe("solana\n");
    // The token index is looked for in a cache folder of the test's own, where there is none.
    expect((await run(["config", "list"], home, { env: { TOKENINTEL_CACHE_DIR: home } })).stdout).toBe(
      [
        "base-url     https://api.dapplooker.com  (default)",
        "api-paths    older                       (default)",
        "chain        solana                      (config)",
        "output       ndjson                      (config)",
        "timeout      30s                         (default)",
        "retries      3                           (default)",
        "pay-network  (the offer's first)         (default)",
        "pay-to       (any payee)                 (default)",
        "daily-cap    (no cap)                    (default)",
        "cache        0 (off)                     (default)",
        "api-key      (not set)",
        "token-index  base (not synced); solana (not synced); refresh with 'tokenintel directory --sync'",
        "",
      ].join("\n"),
    );
    expect((await run(["config", "path"], home)).stdout).toBe(`${join(home, "config.json")}\n`);
    const r = await run(["--base-url", sandbox.url, "market", "-e", "virtuals", "--limit", "2"], home, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { token_info: { chain: string } });
    expect(lines.map((l) => l.token_info.chain)).toEqual(["solana", "solana"]);
    expect((await run(["config", "unset", "chain"], home)).code).toBe(0);
    expect((await run(["config", "get", "chain"], home)).code).toBe(1);
    const bad = await run(["config", "set", "chain", "eth"], home);
    expect(bad.code).toBe(2);
    const key = await run(["config", "set", "api-key", "x"], home);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/auth login/);
  });
});

describe("precedence", () => {
  it("precedence: flag over environment over store, for the key and the base URL", async () => {
    const home = freshDir();
    await run(["auth", "login", "--with-token", "--no-verify"], home, { input: "stored-key-aaaaaaaaaaaa" });
    await run(["config", "set", "base-url", "http://127.0.0.1:9"], home);
    // Each status checks the key against the stored base URL, a dead port: exit 1, lines printed.
    const fromStore = await run(["--retries", "0", "auth", "status"], home);
    expect(fromStore.stdout).toMatch(/stor…aaaa[\s\S]*config store/);
    const fromEnv = await run(["--retries", "0", "auth", "status"], home, {
      env: { TOKENINTEL_API_KEY: "env-key-bbbbbbbbbbbbbb" },
    });
    expect(fromEnv.stdout).toMatch(/env-…bbbb[\s\S]*environment/);
    const fromFlag = await run(
      ["--retries", "0", "--api-key", "flag-key-cccccccccccc", "auth", "status"],
      home,
      {
        env: { TOKENINTEL_API_KEY: "env-key-bbbbbbbbbbbbbb" },
      },
    );
    expect(fromFlag.stdout).toMatch(/flag…cccc[\s\S]*--api-key/);

    // The stored base URL (a dead port) loses to the environment, which loses to the flag.
    const viaStore = await run(["--retries", "0", "market", "-c", "base", "--limit", "1"], home, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(viaStore.code).toBe(1);
    const viaEnv = await run(["market", "-c", "base", "--limit", "1"], home, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_BASE_URL: sandbox.url },
    });
    expect(viaEnv.code).toBe(0);
    const viaFlag = await run(["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"], home, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(viaFlag.code).toBe(0);
  });
});

describe("config list shows effective values and where each comes from", () => {
  it("flag, env (named), config and default; the key hidden", async () => {
    const home = freshDir();
    expect((await run(["config", "set", "chain", "solana"], home)).code).toBe(0);
    expect((await run(["config", "set", "output", "csv"], home)).code).toBe(0);
    expect((await run(["config", "set", "retries", "5"], home)).code).toBe(0);
    expect((await run(["auth", "login", "--with-token", "--no-verify"], home, { input: KEY })).code).toBe(0);
    const r = await run(["--timeout", "45s", "--no-cache", "config", "list"], home, {
      env: { TOKENINTEL_CHAIN: "base", TOKENINTEL_CACHE_DIR: home },
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const row = (key: string) => lines.find((l) => l.startsWith(`${key} `))?.replace(/\s+/g, " ");
    expect(row("base-url")).toBe("base-url https://api.dapplooker.com (default)");
    expect(row("chain")).toBe("chain base (env TOKENINTEL_CHAIN)");
    expect(row("output")).toBe("output csv (config)");
    expect(row("timeout")).toBe("timeout 45s (flag --timeout)");
    expect(row("retries")).toBe("retries 5 (config)");
    expect(row("cache")).toBe("cache 0 (off) (flag --no-cache)");
    expect(row("api-key")).toBe("api-key (set; see 'tokenintel auth status') (config)");
    expect(r.stdout).not.toContain(KEY);
    // Aligned: every value starts in the same column.
    const starts = lines.filter(Boolean).map((l) => /^\S+\s+/.exec(l)![0].length);
    expect(new Set(starts).size).toBe(1);

    const env = await run(["--sandbox", "config", "list"], home, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE: "10m", TOKENINTEL_CACHE_DIR: home },
    });
    const envRow = (key: string) =>
      env.stdout
        .split("\n")
        .find((l) => l.startsWith(`${key} `))
        ?.replace(/\s+/g, " ");
    expect(envRow("base-url")).toBe("base-url (a local sandbox) (flag --sandbox)");
    expect(envRow("cache")).toBe("cache 10m (env TOKENINTEL_CACHE)");
    expect(envRow("api-key")).toBe("api-key (set; see 'tokenintel auth status') (flag --sandbox)");
    const fromEnv = await run(["config", "list"], home, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: home },
    });
    expect(fromEnv.stdout).toMatch(
      /^api-key\s+\(set; see 'tokenintel auth status'\)\s+\(env TOKENINTEL_API_KEY\)$/m,
    );
    expect(fromEnv.stdout).not.toContain(KEY);
  });
});

describe("the folders of a run without TOKENINTEL_*_DIR", () => {
  it("are the platform's under the run's own HOME and XDG variables, not the process's", async () => {
    const home = freshDir();
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: undefined,
      XDG_CACHE_HOME: join(home, "xdg-cache"),
      XDG_DATA_HOME: undefined,
      TOKENINTEL_CONFIG_DIR: undefined,
      TOKENINTEL_CACHE_DIR: undefined,
      TOKENINTEL_DATA_DIR: undefined,
    };
    const config = await run(["config", "path"], home, { env });
    expect(config.stdout).toBe(`${join(home, ".config", "tokenintel", "config.json")}\n`);
    const cache = await run(["cache", "path"], home, { env });
    expect(cache.stdout.trim()).toBe(join(home, "xdg-cache", "tokenintel", "responses"));
    const report = await run(["version", "--verbose"], home, { env });
    expect(report.stdout).toContain(`\ndata: ${join(home, ".local", "share", "tokenintel")}\n`);
  });
});
