import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import nodeModule from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSandbox, useServers } from "./fixtures.js";
import { run } from "./helpers.js";

// Node 22+ runs the compiled code it finds in its compile cache. Its default folder is
// os.tmpdir()/node-compile-cache, which another user of the machine can make first: tokenintel keeps
// the cache in its own cache folder instead, and only when that folder is the user's alone.
// On Node 20 (no compile cache) the same runs must leave no cache anywhere.
// Also here, what else a run's start-up leaves out: builtins that undici and commander require at
// load time and a run never uses get stand-ins that load the real module on first use
// (scripts/build.mjs): node:http2 and node:tls cost ~20 ms. node:child_process, which commander
// loads, has no stand-in: its trial measured no gain (docs/performance.md), so it is not checked here.

const hasCompileCache =
  typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";
const dir = { path: useServers().folder() };
const sandbox = useSandbox();

/** One request, as a user runs it, with TMPDIR and the cache folders pointed into `root`. */
async function oneRequest(root: string, env: Record<string, string | undefined>) {
  mkdirSync(join(root, "tmp"), { recursive: true });
  const r = await run(
    [
      "--base-url",
      sandbox.url,
      "--api-key",
      sandbox.apiKey,
      "market",
      "-c",
      "base",
      "--tickers",
      "VIRTUAL",
      "--json",
    ],
    join(root, "config"),
    { env: { TMPDIR: join(root, "tmp"), XDG_CACHE_HOME: join(root, "xdg"), ...env } },
  );
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toHaveLength(1);
  return r;
}

describe("the compile cache is the user's own", () => {
  it("lives in tokenintel's cache folder ($XDG_CACHE_HOME/tokenintel), mode 0700, never in TMPDIR", async () => {
    const root = join(dir.path, "xdg-case");
    await oneRequest(root, {});
    const cache = join(root, "xdg", "tokenintel", "node-compile-cache");
    expect(existsSync(cache)).toBe(hasCompileCache);
    if (hasCompileCache) {
      expect(statSync(cache).mode & 0o777).toBe(0o700);
      expect(readdirSync(cache).length).toBeGreaterThan(0);
    }
    expect(readdirSync(join(root, "tmp"))).toEqual([]);
  });

  it("follows TOKENINTEL_CACHE_DIR", async () => {
    const root = join(dir.path, "env-case");
    await oneRequest(root, { TOKENINTEL_CACHE_DIR: join(root, "mine") });
    expect(existsSync(join(root, "mine", "node-compile-cache"))).toBe(hasCompileCache);
    expect(existsSync(join(root, "xdg"))).toBe(false);
    expect(readdirSync(join(root, "tmp"))).toEqual([]);
  });

  it.each([
    ["its folder", (base: string) => join(base, "node-compile-cache")],
    ["the cache folder above it", (base: string) => base],
  ])("is not used when others may write to %s (the run goes on without it)", async (_, writable) => {
    const root = join(dir.path, `shared-${readdirSync(dir.path).length}`);
    const base = join(root, "shared");
    mkdirSync(join(base, "node-compile-cache"), { recursive: true });
    chmodSync(writable(base), 0o777);
    await oneRequest(root, { TOKENINTEL_CACHE_DIR: base });
    expect(readdirSync(join(base, "node-compile-cache"))).toEqual([]);
    expect(readdirSync(join(root, "tmp"))).toEqual([]);
  });
});

describe("one request's start-up", () => {
  it("loads neither node:http2 nor node:tls", async () => {
    const root = join(dir.path, "modules-case");
    mkdirSync(root, { recursive: true });
    const list = join(root, "modules.txt");
    const preload = join(root, "modules.cjs");
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));\n`,
    );
    await oneRequest(root, { NODE_OPTIONS: `--require ${preload}` });
    const loaded = readFileSync(list, "utf8").split("\n");
    expect(loaded).toContain("NativeModule net"); // the list is the real one
    for (const name of ["http2", "tls"]) expect(loaded).not.toContain(`NativeModule ${name}`);
  });
});
