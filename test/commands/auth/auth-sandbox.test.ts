import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SANDBOX_API_KEY } from "../../../src/sandbox/tokens.js";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// `auth login --sandbox` never saves the sandbox's demo key as the real key, and `auth status
// --sandbox` looks at the sandbox's stored key. With --sandbox, auth works on a sandbox
// profile of its own (the config folder's sandbox/), so the whole "log in, check, log out" can be
// tried against the sandbox and the real key is never read, written or removed. `auth login
// --api-key K` stores K (after checking it) instead of prompting; --base-url beside --sandbox is
// refused, not silently ignored.

const REAL = `sk_live_${Math.random().toString(36).slice(2)}_auth_sandbox`;
const OTHER = `sk_other_${Math.random().toString(36).slice(2)}_auth_sandbox`;
const servers = useServers();
const server = useSandbox({ apiKey: OTHER });
neverShown(REAL, OTHER);

/** A config folder whose real store holds REAL. */
function loggedIn(): string {
  const d = servers.folder();
  chmodSync(d, 0o700);
  writeFileSync(join(d, "config.json"), JSON.stringify({ apiKey: REAL }), { mode: 0o600 });
  return d;
}
const keyIn = (file: string): unknown =>
  existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).apiKey : undefined;

describe("auth with --sandbox: a profile of its own", () => {
  it("login, status and logout against the sandbox never touch the real key", async () => {
    const dir = loggedIn();
    const real = join(dir, "config.json");
    const profile = join(dir, "sandbox", "config.json");

    const login = await run(["auth", "login", "--sandbox", "--with-token"], dir, { input: SANDBOX_API_KEY });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toBe(
      `tokenintel: key saved to the sandbox profile ${profile} (used with --sandbox only; the real key is untouched)\n`,
    );
    expect(keyIn(real)).toBe(REAL);
    expect(keyIn(profile)).toBe(SANDBOX_API_KEY);

    const status = await run(["auth", "status", "--sandbox"], dir);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe(
      `API key: ti_s…9a2c\nSource:  the sandbox profile (${profile})\nStatus:  accepted by the sandbox\n`,
    );

    const logout = await run(["auth", "logout", "--sandbox"], dir);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(`tokenintel: key removed from the sandbox profile ${profile}\n`);
    expect(keyIn(real)).toBe(REAL);
    expect(keyIn(profile)).toBeUndefined();

    // Without a profile key, --sandbox falls back to its demo key, as before.
    const demo = await run(["auth", "status", "--sandbox"], dir);
    expect(demo.stdout).toContain("Source:  the sandbox's demo key (--sandbox)");
  });

  it("a key the sandbox does not take is saved nowhere: exit 4, naming the demo key", async () => {
    const dir = loggedIn();
    const r = await run(["auth", "login", "--sandbox", "--with-token"], dir, { input: OTHER });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      `tokenintel: the key was rejected by the sandbox (HTTP 401: Invalid API key); nothing saved; the sandbox takes only its demo key, ${SANDBOX_API_KEY}\n`,
    );
    expect(keyIn(join(dir, "config.json"))).toBe(REAL);
    expect(existsSync(join(dir, "sandbox", "config.json"))).toBe(false);
  });

  it("a sandbox profile key is the key --sandbox runs use; the real key is not", async () => {
    const dir = loggedIn();
    const login = await run(["auth", "login", "--sandbox", "--with-token", "--no-verify"], dir, {
      input: OTHER,
    });
    expect(login.code).toBe(0);
    const market = await run(["market", "--sandbox", "-c", "base", "--limit", "1"], dir);
    expect(market.code).toBe(4);
    expect(market.stderr).toContain("HTTP 401");
  });
});

describe("auth login --api-key, and --base-url beside --sandbox", () => {
  it("auth login --api-key K checks K and stores it without asking", async () => {
    const dir = loggedIn();
    const r = await run(["--base-url", server.url, "--api-key", OTHER, "auth", "login"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`tokenintel: key saved to ${join(dir, "config.json")} (readable by you only)\n`);
    expect(keyIn(join(dir, "config.json"))).toBe(OTHER);
  });

  it("--api-key with --with-token is refused: one key, one way", async () => {
    const dir = loggedIn();
    const r = await run(["--api-key", OTHER, "auth", "login", "--with-token"], dir, { input: OTHER });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tokenintel: auth login: --api-key and --with-token both give a key; use one\n");
    expect(keyIn(join(dir, "config.json"))).toBe(REAL);
  });

  it("--base-url with --sandbox is a usage error naming both, before any request", async () => {
    const before = server.stats.requests;
    for (const args of [
      ["--sandbox", "--base-url", server.url, "market", "-c", "base"],
      ["auth", "status", "--sandbox", "--base-url", server.url],
    ]) {
      const r = await run(args, loggedIn());
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^tokenintel: --base-url and --sandbox cannot be used together: .*\n$/);
    }
    expect(server.stats.requests).toBe(before);
  });
});
