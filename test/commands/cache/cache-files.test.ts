import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import type { HostileServer } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// The response cache's files, in-process through run(): a 2xx body echoing the key is stored with
// the key masked, and a cache folder that cannot be written says so once, with the right reason.

const KEY = "ti_test_cache_files_key_41c9e2";
const servers = useServers();
let server: HostileServer;
const config = { path: servers.folder("tokenintel-cf-config-") };

beforeAll(async () => {
  server = await servers.stub((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    res.setHeader("content-type", "application/json");
    // A server that echoes what it was asked, the key included.
    res.end(JSON.stringify({ success: true, data: { echo: url.searchParams.get("api_key") } }));
  });
});

const cli = (cache: string, args: string[]) =>
  run(["--base-url", server.url, ...args], config.path, {
    env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: cache },
  });

describe("the response cache's files", () => {
  it("a body that echoes the key is stored with the key masked, and replays the same output", async () => {
    const cache = { path: servers.folder("tokenintel-cf-") };
    const first = await cli(cache.path, ["api", "/v1/echo", "--cache", "10m"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toContain(KEY);
    const folder = join(cache.path, "responses");
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    const stored = readFileSync(join(folder, files[0]!), "utf8");
    expect(stored).not.toContain(KEY);
    expect(JSON.parse(JSON.parse(stored).text)).toEqual({ success: true, data: { echo: "***" } });
    const before = server.requests.length;
    const second = await cli(cache.path, ["api", "/v1/echo", "--cache", "10m"]);
    expect(server.requests.length).toBe(before);
    expect(second.stdout).toBe(first.stdout);
  });

  it("a cache folder that cannot be used says so once on stderr, with the reason; the answer still comes", async () => {
    const base = { path: servers.folder("tokenintel-cf-bad-") };
    writeFileSync(join(base.path, "a-file"), "");
    const shared = join(base.path, "shared");
    mkdirSync(join(shared, "responses"), { recursive: true });
    chmodSync(join(shared, "responses"), 0o777);
    for (const [cache, reason] of [
      [join(base.path, "a-file"), /a part of the path is not a folder \(ENOTDIR\)$/],
      [
        shared,
        /the response cache folder .*responses is writable by others \(mode 0777\); run: chmod 700 '.*'$/,
      ],
    ] as const) {
      const r = await cli(cache, ["api", "/v1/echo", "--cache", "10m"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { echo: "***" } });
      const lines = r.stderr.split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^tokenintel: warning: --cache: answers are not being cached: /);
      expect(lines[0]).toMatch(reason);
    }
  });
});
