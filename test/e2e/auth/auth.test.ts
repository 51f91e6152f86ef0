import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { useKeyedSandbox } from "../../commands/sandbox-runs.js";

// `tokenintel auth` and the key's store, run in-process through run() against the sandbox: login
// --with-token stores the key privately, status masks it, logout removes it, login needs a terminal
// or --with-token, status warns about a config file others can read.

const { KEY, servers, sandbox } = useKeyedSandbox("auth");
const freshDir = () => servers.folder();

describe("auth and the key's store", () => {
  it("auth login --with-token stores the key 0600 in a 0700 folder; status masks it; logout removes it", async () => {
    const home = freshDir();
    const cfg = join(home, "cfg");
    const env = { TOKENINTEL_CONFIG_DIR: cfg };
    const login = await run(["--base-url", sandbox.url, "auth", "login", "--with-token"], home, {
      env,
      input: `${KEY}\n`,
    });
    expect(login.code).toBe(0);
    const file = join(cfg, "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8")).apiKey).toBe(KEY);

    const status = await run(["--base-url", sandbox.url, "auth", "status"], home, { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`API key: ${KEY.slice(0, 4)}…${KEY.slice(-4)}`);
    expect(status.stdout).toMatch(/Source:\s+the config store/);

    const fromStore = await run(["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"], home, {
      env,
    });
    expect(fromStore.code).toBe(0);

    const logout = await run(["auth", "logout"], home, { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).apiKey).toBeUndefined();
    const after = await run(["auth", "status"], home, { env });
    expect(after.code).toBe(4);
  });

  it("auth login refuses to run without a terminal or --with-token", async () => {
    const r = await run(["auth", "login"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-token/);
  });

  it("auth status warns when the config file is readable by others", async () => {
    const home = freshDir();
    await run(["auth", "login", "--with-token", "--no-verify"], home, { input: KEY });
    const { chmodSync } = await import("node:fs");
    chmodSync(join(home, "config.json"), 0o644);
    const r = await run(["--base-url", sandbox.url, "auth", "status"], home);
    expect(r.stderr).toMatch(/readable by others \(mode 0644\)/);
  });
});
