import { createHash } from "node:crypto";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { neverShown, useSandbox, useServers } from "../fixtures.js";
import { baseEnv } from "../helpers.js";
import { commandLine, launchPty } from "../terminal-session.js";

// --cache <ttl> run in-process through run() (in a terminal: the built binary) against the sandbox, which
// counts every request.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_cachekey`;
const OTHER_KEY = `sk_test_${Math.random().toString(36).slice(2)}_otherkey`;
const WALLET = generatePrivateKey();
const servers = useServers();
const dir = { path: servers.folder() };
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

/** A fresh cache folder for one test. */
const cacheDir = () => servers.folder("tokenintel-cache-");

const cli = (cache: string, args: string[], env: Record<string, string | undefined> = {}) =>
  run(["--base-url", sandbox.url, ...args], dir.path, {
    env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: cache, ...env },
  });

const requests = () => sandbox.stats.requests;

/** Every file under the response cache, with its bytes. */
function entries(cache: string): Array<{ path: string; text: string; mode: number }> {
  const folder = join(cache, "responses");
  return readdirSync(folder).map((name) => {
    const path = join(folder, name);
    return { path, text: readFileSync(path, "utf8"), mode: statSync(path).mode & 0o777 };
  });
}

/** The key in every spelling it could be stored in. */
function spellings(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [
    secret,
    encodeURIComponent(secret),
    bytes.toString("base64"),
    bytes.toString("base64url"),
    bytes.toString("hex"),
    createHash("sha256").update(secret).digest("hex"),
    JSON.stringify(secret).slice(1, -1),
  ];
}

describe("--cache <ttl>", () => {
  it("a repeat within the TTL makes zero requests and prints the same bytes", async () => {
    const cache = cacheDir();
    const args = ["market", "-c", "base", "-e", "virtuals", "--limit", "40", "--json", "--cache", "10m"];
    const before = requests();
    const first = await cli(cache, args);
    expect(first.code, first.stderr).toBe(0);
    const made = requests() - before;
    expect(made).toBeGreaterThan(0);
    const second = await cli(cache, args);
    expect(second.code, second.stderr).toBe(0);
    expect(requests() - before).toBe(made);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe(first.stderr);
    // And an uncached run prints exactly the same.
    const plain = await cli(cache, args.slice(0, -2));
    expect(plain.stdout).toBe(first.stdout);
  });

  it("the folder is 0700, its files 0600, and no file holds the key in any encoding", async () => {
    const cache = cacheDir();
    const r = await cli(cache, [
      "market",
      "-c",
      "base",
      "--tickers",
      "AERO,DEGEN",
      "--json",
      "--cache",
      "1h",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(join(cache, "responses")).mode & 0o777).toBe(0o700);
    const files = entries(cache);
    expect(files.length).toBe(1);
    for (const file of files) {
      expect(file.mode).toBe(0o600);
      for (const spelling of spellings(KEY)) expect(file.text).not.toContain(spelling);
      expect(file.text).not.toMatch(/api_key/);
    }
  });

  it("tokenintel api: a repeated GET is answered from disk, byte for byte", async () => {
    const cache = cacheDir();
    const args = [
      "api",
      "/v1/crypto-market/",
      "-f",
      "chain=base",
      "-f",
      "token_tickers=AERO",
      "--cache",
      "5m",
    ];
    const first = await cli(cache, args);
    expect(first.code, first.stderr).toBe(0);
    const before = requests();
    const second = await cli(cache, args);
    expect(requests()).toBe(before);
    expect(second.stdout).toBe(first.stdout);
  });

  it("--verbose says the answer came from the cache, and its age", async () => {
    const cache = cacheDir();
    const args = ["market", "-c", "base", "--tickers", "AERO", "--json", "--cache", "10m"];
    await cli(cache, args);
    const r = await cli(cache, ["--verbose", ...args]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^> GET http:\/\/127\.0\.0\.1:\d+\/v1\/crypto-market\/\?.*api_key=\*\*\* from cache \(age \d+s\)$/m,
    );
  });

  it("--no-cache, another key, an expired entry and a tampered entry all ask the server", async () => {
    const cache = cacheDir();
    const args = ["market", "-c", "base", "--tickers", "BRETT", "--json"];
    const first = await cli(cache, [...args, "--cache", "10m"]);
    expect(first.code).toBe(0);
    const asks = async (extra: string[], env: Record<string, string | undefined> = {}) => {
      const before = requests();
      const r = await cli(cache, [...args, ...extra], env);
      return { r, made: requests() - before };
    };
    expect((await asks(["--cache", "10m"])).made).toBe(0);
    expect((await asks(["--cache", "10m", "--no-cache"])).made).toBe(1);
    // Entries are kept apart per key: another key's run does not read this one's (it is refused: 401).
    expect((await asks(["--cache", "10m"], { TOKENINTEL_API_KEY: OTHER_KEY })).made).toBeGreaterThan(0);

    const [entry] = entries(cache);
    const stored = JSON.parse(entry!.text) as { storedAt: number };
    // Past the TTL: ignored and replaced.
    writeFileSync(entry!.path, JSON.stringify({ ...stored, storedAt: stored.storedAt - 11 * 60_000 }));
    const expired = await asks(["--cache", "10m"]);
    expect(expired.made).toBe(1);
    expect(expired.r.stdout).toBe(first.stdout);
    expect((await asks(["--cache", "10m"])).made).toBe(0);

    // Forged content is never trusted: a corrupt entry, and one others may write to.
    writeFileSync(entries(cache)[0]!.path, "{not json");
    const corrupt = await asks(["--cache", "10m"]);
    expect(corrupt.made).toBe(1);
    expect(corrupt.r.stdout).toBe(first.stdout);
    const file = entries(cache)[0]!;
    const forged = JSON.parse(file.text) as { text: string };
    writeFileSync(file.path, JSON.stringify({ ...forged, text: forged.text.replace(/BRETT/g, "FORGED") }));
    chmodSync(file.path, 0o666);
    const loose = await asks(["--cache", "10m"]);
    expect(loose.made).toBe(1);
    expect(loose.r.stdout).toBe(first.stdout);
  });

  it("TOKENINTEL_CACHE and 'config set cache' turn it on; a bad value is a usage error", async () => {
    const cache = cacheDir();
    const args = ["market", "-c", "base", "--tickers", "GAME", "--json"];
    await cli(cache, args, { TOKENINTEL_CACHE: "2m" });
    let before = requests();
    await cli(cache, args, { TOKENINTEL_CACHE: "2m" });
    expect(requests()).toBe(before);

    const conf = { path: servers.folder() };
    const withConf = (a: string[]) =>
      run(["--base-url", sandbox.url, ...a], conf.path, {
        env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: cacheDir() },
      });
    expect((await withConf(["config", "set", "cache", "1h"])).code).toBe(0);
    await withConf(args);
    const bad = await withConf(["config", "set", "cache", "forever"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^tokenintel: cache: expected a time to live/);
    const flag = await cli(cache, [...args, "--cache", "soon"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toMatch(/^tokenintel: --cache: expected a time to live/);
    before = requests();
    const env = await cli(cache, args, { TOKENINTEL_CACHE: "soon" });
    expect(env.code).toBe(2);
    expect(requests()).toBe(before);
  });

  it("'cache path' names the folder and 'cache clear' empties it", async () => {
    const cache = cacheDir();
    await cli(cache, ["market", "-c", "base", "--tickers", "LUNA", "--json", "--cache", "10m"]);
    const path = await cli(cache, ["cache", "path"]);
    expect(path.stdout).toBe(`${join(cache, "responses")}\n`);
    const clear = await cli(cache, ["cache", "clear"]);
    expect(clear.code).toBe(0);
    expect(clear.stderr).toMatch(/removed 1 cached answer/);
    expect(entries(cache)).toEqual([]);
    const before = requests();
    await cli(cache, ["market", "-c", "base", "--tickers", "LUNA", "--json", "--cache", "10m"]);
    expect(requests() - before).toBe(1);
  });
});

describe("--cache with --pay", () => {
  it("a second identical paid request costs nothing, and the summary says so", async () => {
    const paid = await servers.sandbox();
    const cache = cacheDir();
    const args = [
      "--base-url",
      paid.url,
      "directory",
      "-c",
      "base",
      "--page",
      "2",
      "--pay",
      "--json",
      "--cache",
      "10m",
    ];
    const env = { TOKENINTEL_WALLET_KEY: WALLET, TOKENINTEL_CACHE_DIR: cache };
    const first = await run(args, dir.path, { env });
    expect(first.code, first.stderr).toBe(0);
    expect(paid.stats.payments.accepted).toBe(1);
    const second = await run(args, dir.path, { env });
    expect(second.code, second.stderr).toBe(0);
    expect(paid.stats.payments.accepted).toBe(1);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr.trim()).toBe("tokenintel: 1 answer from cache, nothing paid for it");
    for (const file of entries(cache)) {
      expect(file.text).not.toMatch(/payment|x402|signature/i);
      for (const spelling of spellings(WALLET)) expect(file.text).not.toContain(spelling);
    }
  });
});

describe("--cache with --watch", () => {
  it("a watch's refreshes always ask the server, even with an entry in the cache", async () => {
    const cache = cacheDir();
    const args = ["--base-url", sandbox.url, "market", "-c", "base", "--tickers", "AERO", "--cache", "10m"];
    const env = { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: cache };
    expect((await run([...args, "--json"], dir.path, { env })).code).toBe(0);
    const before = sandbox.stats.byPath["/v1/crypto-market/"] ?? 0;
    const pty = launchPty(commandLine([...args, "--watch", "1s"]), {
      ...baseEnv(dir.path),
      ...env,
      COLUMNS: "100",
      LINES: "40",
      TERM: "xterm-256color",
    });
    const screen = () => pty.screen();
    const asked = () => (sandbox.stats.byPath["/v1/crypto-market/"] ?? 0) - before;
    const deadline = Date.now() + 15_000;
    while (((screen().match(/Every 1s/g) ?? []).length < 3 || asked() < 2) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    pty.child.stdin.write("\x03");
    expect(await pty.exited).toBe(130);
    expect((screen().match(/Every 1s/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(asked()).toBeGreaterThanOrEqual(2);
  });
});
