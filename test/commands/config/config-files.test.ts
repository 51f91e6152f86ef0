import { chmodSync, chownSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { run } from "../harness.js";

// A config store that is not the user's own and private: a file or folder owned
// by another user, or that others may write to, is refused by every reader with one line and exit 2;
// a key others can read is used, with a warning that says how to fix it.

const servers = useServers();
/** A fresh config folder for one run. */
const fresh = () => servers.folder();

describe("a config store that is not the user's own and private", () => {
  const KEY = "perm-test-key-0123456789";
  /** A store with a key and a base URL, then spoiled by `spoil`; every reader must refuse it. */
  async function expectRefused(spoil: (home: string, file: string) => void, pattern: RegExp) {
    const home = fresh();
    const file = join(home, "config.json");
    expect((await run(["auth", "login", "--with-token", "--no-verify"], home, { input: KEY })).code).toBe(0);
    expect((await run(["config", "set", "base-url", "http://127.0.0.1:9"], home)).code).toBe(0);
    spoil(home, file);
    for (const args of [
      ["auth", "status"],
      ["config", "list"],
      ["market", "-c", "base"],
    ]) {
      const r = await run(args, home);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(r.stderr).not.toContain(KEY);
    }
  }

  // Root hands the file to nobody (uid 65534); anyone else cannot, so it puts in its place a link to a
  // file root owns (the readers follow links, as they would to read it). The same checks run with an
  // injected stat as unit tests (test/unit/terminal-safety.test.ts).
  const asRoot = process.getuid?.() === 0;
  const other = asRoot ? 65534 : 0;

  it(`refuses a config file owned by another user (uid ${other})`, async () => {
    await expectRefused(
      (_, file) => {
        if (asRoot) return chownSync(file, other, other);
        rmSync(file);
        symlinkSync("/etc/passwd", file);
      },
      new RegExp(
        `^tokenintel: the config file .*config\\.json is not yours \\(owner uid ${other}\\); remove it, or set TOKENINTEL_CONFIG_DIR`,
      ),
    );
  });

  // A folder of another user's that holds a config file only root can make: as anyone else, this one
  // is left to the root runs (CI runs the suite as root on every Node line, and as nobody once).
  it.runIf(asRoot)(`refuses a config folder owned by another user (uid ${other})`, async () => {
    await expectRefused(
      (home) => chownSync(home, other, other),
      new RegExp(`^tokenintel: the config folder .* is not yours \\(owner uid ${other}\\)`),
    );
  });

  it("says so when the stored key is read from a file others can read, and keeps working", async () => {
    const home = fresh();
    const file = join(home, "config.json");
    expect((await run(["auth", "login", "--with-token", "--no-verify"], home, { input: KEY })).code).toBe(0);
    chmodSync(file, 0o644);
    const s = await servers.sandbox({ apiKey: KEY });
    const r = await run(["--base-url", s.url, "market", "-c", "base", "--limit", "1", "--json"], home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `tokenintel: warning: the config file ${file} holds your API key and others can read it (mode 0644); run: chmod 600 '${file}'\n`,
    );
    // Readable by the group alone is readable by others too.
    chmodSync(file, 0o640);
    const group = await run(["--base-url", s.url, "market", "-c", "base", "--limit", "1", "--json"], home);
    expect(group.stderr).toMatch(/others can read it \(mode 0640\)/);
    chmodSync(file, 0o600);
    const quiet = await run(["--base-url", s.url, "market", "-c", "base", "--limit", "1", "--json"], home);
    expect(quiet.stderr).toBe("");
  });

  it("refuses a config file or folder that others may write to", async () => {
    await expectRefused(
      (_, file) => chmodSync(file, 0o666),
      /^tokenintel: the config file .*config\.json is writable by others \(mode 0666\); run: chmod 600 '/,
    );
    await expectRefused(
      (_, file) => chmodSync(file, 0o620),
      /^tokenintel: the config file .*config\.json is writable by others \(mode 0620\)/,
    );
    await expectRefused(
      (home) => chmodSync(home, 0o777),
      /^tokenintel: the config folder .* is writable by others \(mode 0777\); run: chmod 700 '/,
    );
  });
});
