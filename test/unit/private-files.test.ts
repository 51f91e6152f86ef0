import { spawnSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeFsError } from "../../src/files/errors.js";
import { acquireLock, appendPrivateLine, releaseLock, withFileLock } from "../../src/files/lock.js";
import {
  assertWritableDir,
  makePrivateDir,
  PrivateFileError,
  readPrivateFile,
  writePrivateFile,
} from "../../src/files/private.js";
import { indexFile, loadIndex, type TokenIndex, writeIndex } from "../../src/token-index/store.js";
import { tempDir } from "../e2e/helpers.js";

// One module for private files: a folder that is the user's own, no planted link followed, and a
// write that is whole or not at all (the token index is one of its files).

const dirs: Array<{ remove: () => void }> = [];
function scratch(): string {
  const d = tempDir("tokenintel-private-");
  dirs.push(d);
  return d.path;
}
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

const fail = (code: string) => Object.assign(new Error(`${code}: failed`), { code });
/** A lstat that reports another owner (the tests may run as root, who owns everything it makes). */
const ownedBy = (uid: number) => (path: string) => Object.assign(lstatSync(path), { uid });
const me = process.getuid?.() ?? 0;

describe("writePrivateFile", () => {
  it("writes 0600 whatever the umask, leaves no temporary file", () => {
    const dir = scratch();
    const file = join(dir, "f.json");
    const old = process.umask(0);
    try {
      writePrivateFile(file, "one");
    } finally {
      process.umask(old);
    }
    expect(readFileSync(file, "utf8")).toBe("one");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["f.json"]);
  });

  it("never writes through a link planted at its temporary name (exclusive create, no follow)", () => {
    const dir = scratch();
    const victim = join(dir, "victim");
    writeFileSync(victim, "precious");
    const file = join(dir, "f.json");
    writeFileSync(file, "old");
    // The attacker wins the race: a link appears at the temporary name just before it is opened.
    const openThroughPlant: typeof openSync = ((path: string, flags: number, mode: number) => {
      symlinkSync(victim, path);
      return openSync(path, flags, mode);
    }) as typeof openSync;
    expect(() => writePrivateFile(file, "evil", "the file", { openSync: openThroughPlant })).toThrow(
      /could not write the file .*f\.json: already exists \(EEXIST\); the previous one was kept/,
    );
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(readFileSync(file, "utf8")).toBe("old");
  });

  it.each([
    ["ENOSPC", "writeSync", "no space left on device (ENOSPC)"],
    ["EDQUOT", "writeSync", "disk quota exceeded (EDQUOT)"],
    ["EROFS", "openSync", "read-only file system (EROFS)"],
    ["EACCES", "renameSync", "permission denied (EACCES)"],
    ["EIO", "fsyncSync", "input/output error (EIO)"],
  ] as const)("%s in %s: one line, the old file kept, no temporary file left", (code, call, words) => {
    const dir = scratch();
    const file = join(dir, "f.json");
    writeFileSync(file, "the good one");
    let calls = 0;
    const failing = {
      // A full disk takes the first bytes, then refuses the rest.
      writeSync: (fd: number, data: Buffer, offset: number, length: number) => {
        if (calls++ === 0) return require("node:fs").writeSync(fd, data, offset, Math.min(3, length));
        throw fail(code);
      },
      openSync: () => {
        throw fail(code);
      },
      renameSync: () => {
        throw fail(code);
      },
      fsyncSync: () => {
        throw fail(code);
      },
    };
    let error: unknown;
    try {
      writePrivateFile(file, "x".repeat(100), "the token index", { [call]: failing[call] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrivateFileError);
    expect((error as Error).message).toBe(
      `could not write the token index ${file}: ${words}; the previous one was kept`,
    );
    expect(readFileSync(file, "utf8")).toBe("the good one");
    expect(readdirSync(dir)).toEqual(["f.json"]);
  });
});

describe("makePrivateDir and readPrivateFile", () => {
  it("makes missing folders 0700 whatever the umask", () => {
    const base = scratch();
    const old = process.umask(0);
    try {
      makePrivateDir(join(base, "a", "b"));
    } finally {
      process.umask(old);
    }
    expect(statSync(join(base, "a")).mode & 0o777).toBe(0o700);
    expect(statSync(join(base, "a", "b")).mode & 0o777).toBe(0o700);
  });

  it("refuses a folder reached through a link, writable by others, or another user's", () => {
    const base = scratch();
    const real = join(base, "real");
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(base, "link"));
    expect(() => makePrivateDir(join(base, "link"), "the cache folder")).toThrow(
      /^the cache folder .*link is a symbolic link/,
    );
    chmodSync(real, 0o770);
    expect(() => makePrivateDir(real, "the cache folder")).toThrow(
      /^the cache folder .*real is writable by others \(mode 0770\); run: chmod 700/,
    );
    chmodSync(real, 0o700);
    expect(() => makePrivateDir(real, "the cache folder", { lstat: ownedBy(me + 1), uid: me })).toThrow(
      /is not yours \(owner uid/,
    );
    expect(() => makePrivateDir(real, "the cache folder")).not.toThrow();
  });

  it("reads a private file; a link, another user's file or one writable by others is untrusted", () => {
    const dir = scratch();
    const file = join(dir, "f");
    writePrivateFile(file, "ok");
    expect(readPrivateFile(file, "the file", 100)).toEqual({ state: "ok", text: "ok" });
    expect(readPrivateFile(join(dir, "none"), "the file", 100)).toEqual({ state: "missing" });
    expect(readPrivateFile(file, "the file", 100, { lstat: ownedBy(me + 1), uid: me }).state).toBe(
      "untrusted",
    );
    expect(readPrivateFile(file, "the file", 1).state).toBe("untrusted");
    symlinkSync(file, join(dir, "l"));
    expect(readPrivateFile(join(dir, "l"), "the file", 100).state).toBe("untrusted");
    chmodSync(file, 0o622);
    expect(readPrivateFile(file, "the file", 100)).toEqual({
      state: "untrusted",
      reason: `the file ${file} is writable by others (mode 0622); run: chmod 600 '${file}'`,
    });
  });

  it("assertWritableDir names the folder and the reason", () => {
    const base = scratch();
    writeFileSync(join(base, "file"), "");
    expect(() => assertWritableDir(join(base, "file"), "the token index folder")).toThrow(
      /^cannot write in the token index folder .*file: a part of the path is not a folder \(ENOTDIR\)$/,
    );
    assertWritableDir(base);
    expect(readdirSync(base)).toEqual(["file"]);
  });

  it("describeFsError speaks words, then the code", () => {
    expect(describeFsError(fail("ENOSPC"))).toBe("no space left on device (ENOSPC)");
    expect(describeFsError(fail("EROFS"))).toBe("read-only file system (EROFS)");
  });
});

describe("the lock", () => {
  const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid!;

  it("is exclusive, and waits a bounded time with a line naming the holder", () => {
    const file = join(scratch(), "config.json");
    const token = acquireLock(file);
    const started = Date.now();
    expect(() => withFileLock(file, () => 1, { timeoutMs: 150, what: "the config file" })).toThrow(
      new RegExp(`^the config file .*config\\.json is locked by another tokenintel \\(pid ${process.pid}\\)`),
    );
    expect(Date.now() - started).toBeLessThan(2000);
    releaseLock(file, token);
    expect(withFileLock(file, () => 42, { timeoutMs: 150 })).toBe(42);
    expect(readdirSync(join(file, ".."))).toEqual([]);
  });

  it("takes over a lock whose holder is gone; an old one only when its holder cannot be checked", () => {
    const file = join(scratch(), "ledger");
    const { hostname } = require("node:os") as typeof import("node:os");
    const old = new Date(Date.now() - 60_000);
    writeFileSync(`${file}.lock`, `${deadPid()}\n${hostname()}\nx\n`);
    expect(withFileLock(file, () => "dead", { timeoutMs: 100 })).toBe("dead");
    // A live holder keeps its lock however old (a run suspended with SIGSTOP is not gone).
    writeFileSync(`${file}.lock`, `${process.pid}\n${hostname()}\nx\n`);
    utimesSync(`${file}.lock`, old, old);
    expect(() => withFileLock(file, () => "old", { timeoutMs: 100, staleMs: 30_000 })).toThrow(
      /is locked by another/,
    );
    // Another host's holder, or one that names no pid, cannot be checked: age decides.
    for (const holder of [`${process.pid}\nelsewhere.example\nx\n`, "\n\n"]) {
      writeFileSync(`${file}.lock`, holder);
      expect(() => withFileLock(file, () => "young", { timeoutMs: 100 })).toThrow(/is locked by another/);
      utimesSync(`${file}.lock`, old, old);
      expect(withFileLock(file, () => "old", { timeoutMs: 100, staleMs: 30_000 })).toBe("old");
    }
  });

  it("tells the work whether its lock is still held", () => {
    const file = join(scratch(), "ledger");
    const { hostname } = require("node:os") as typeof import("node:os");
    const seen = withFileLock(file, (stillHeld) => {
      const before = stillHeld();
      writeFileSync(`${file}.lock`, `${process.pid}\n${hostname()}\nanother-token\n`);
      return [before, stillHeld()];
    });
    expect(seen).toEqual([true, false]);
    // Not its lock any more: left to its new holder.
    expect(readFileSync(`${file}.lock`, "utf8")).toContain("another-token");
  });

  it("never breaks a lock taken after its holder was judged dead, even in the same inode", () => {
    // The interleaving behind a lost `config set` seen under load: run B reads holder A, A releases
    // and ends, run C takes a new lock (reusing the inode), and only then B finds A dead. B must
    // not remove C's lock.
    const file = join(scratch(), "config.json");
    const { hostname } = require("node:os") as typeof import("node:os");
    const dead = deadPid();
    writeFileSync(`${file}.lock`, `${dead}\n${hostname()}\naaaa\n`);
    const isAlive = (pid: number) => {
      if (pid === dead) writeFileSync(`${file}.lock`, `${process.pid}\n${hostname()}\ncccc\n`); // C
      return pid !== dead;
    };
    expect(() => withFileLock(file, () => "both", { timeoutMs: 100, isAlive })).toThrow(
      /is locked by another/,
    );
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(`${process.pid}\n${hostname()}\ncccc\n`);
    expect(readdirSync(join(file, ".."))).toEqual(["config.json.lock"]);
  });

  it("appendPrivateLine appends whole lines, 0600", () => {
    const file = join(scratch(), "ledger.ndjson");
    appendPrivateLine(file, '{"a":1}');
    appendPrivateLine(file, '{"b":2}\n');
    expect(readFileSync(file, "utf8")).toBe('{"a":1}\n{"b":2}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o666);
    expect(() => appendPrivateLine(file, "x", { what: "the ledger" })).toThrow(
      /^the ledger .* is writable by others/,
    );
    expect(readFileSync(file, "utf8")).toBe('{"a":1}\n{"b":2}\n');
  });
});

describe("the token index on disk", () => {
  const index = (n: number): TokenIndex => ({
    version: 1,
    chain: "base",
    syncedAt: new Date().toISOString(),
    source: "https://api.example",
    tokens: Array.from({ length: n }, (_, i) => [`T${i}`, `Token ${i}`, `0x${i}`, `id${i}`, "base"]),
  });

  it("a symlink planted at the old predictable temporary name cannot redirect the write", () => {
    const cache = scratch();
    const env = { TOKENINTEL_CACHE_DIR: cache };
    writeIndex(index(1), env);
    const victim = join(scratch(), "victim");
    writeFileSync(victim, "precious");
    symlinkSync(victim, `${indexFile("base", env)}.${process.pid}.tmp`);
    writeIndex(index(3), env);
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(JSON.parse(readFileSync(indexFile("base", env), "utf8")).tokens).toHaveLength(3);
  });

  it("a failed write (ENOSPC) throws one line and keeps the previous index whole", () => {
    const env = { TOKENINTEL_CACHE_DIR: scratch() };
    writeIndex(index(5), env);
    const full = () => {
      throw fail("ENOSPC");
    };
    expect(() => writeIndex(index(500), env, { writeSync: full })).toThrow(
      /^could not write the token index .*tokens-base\.json: no space left on device \(ENOSPC\); the previous one was kept$/,
    );
    const kept = loadIndex("base", env);
    expect(kept.state === "ok" && kept.index.tokens).toHaveLength(5);
  });

  it("an index others can write, another user's, or in such a folder, is not trusted", () => {
    const cache = scratch();
    const env = { TOKENINTEL_CACHE_DIR: cache };
    writeIndex(index(2), env);
    expect(loadIndex("base", env).state).toBe("ok");
    const other = loadIndex("base", env, false, { lstat: ownedBy(me + 1), uid: me });
    expect(other).toEqual({ state: "untrusted", reason: expect.stringMatching(/is not yours/) });
    chmodSync(indexFile("base", env), 0o666);
    expect(loadIndex("base", env)).toEqual({
      state: "untrusted",
      reason: expect.stringMatching(/^the base token index .* is writable by others \(mode 0666\)/),
    });
    chmodSync(indexFile("base", env), 0o600);
    chmodSync(join(cache, "index"), 0o777);
    expect(loadIndex("base", env)).toEqual({
      state: "untrusted",
      reason: expect.stringMatching(/^the token index folder .* is writable by others/),
    });
    chmodSync(join(cache, "index"), 0o700);
    chmodSync(cache, 0o777);
    expect(loadIndex("base", env).state).toBe("untrusted");
  });

  it("a damaged index says so and how to rebuild it", () => {
    const env = { TOKENINTEL_CACHE_DIR: scratch() };
    writeIndex(index(2), env);
    writeFileSync(indexFile("base", env), '{"version":1,"chain":"base","tok');
    expect(loadIndex("base", env)).toEqual({
      state: "damaged",
      reason: expect.stringMatching(
        /^the base token index .* is damaged \(not valid JSON\); run 'tokenintel directory --sync -c base' to rebuild it$/,
      ),
    });
  });
});
