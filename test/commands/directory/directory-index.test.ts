import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useServers } from "../../e2e/fixtures.js";
import { tempDir } from "../../e2e/helpers.js";
import type { HostileServer } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// The token index `directory --sync` writes, in-process through run(): it is written whole or not
// at all, is not trusted in a folder or file others can write, is said to be damaged when it is, and
// a cache folder that cannot take it fails `directory --sync` before any page is downloaded.

const KEY = "ti_test_private_files_key_77aa";
const DIRECTORY = [
  { id: "id-a", symbol: "AAA", name: "Triple A", address: "0xa1", chain: "base", ecosystem: "base" },
  { id: "id-b", symbol: "BBB", name: "Triple B", address: "0xb2", chain: "base", ecosystem: "base" },
];

const servers = useServers();
let server: HostileServer;
const config = { path: servers.folder("tokenintel-pf-config-") };
beforeAll(async () => {
  server = await servers.stub((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    res.setHeader("content-type", "application/json");
    const page = url.searchParams.get("page") === "1" ? DIRECTORY : [];
    res.end(JSON.stringify({ success: true, data: url.pathname === "/v1/crypto-metainfo" ? page : [] }));
  });
});

const cli = (cache: string, args: string[]) =>
  run(["--base-url", server.url, ...args], config.path, {
    env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: cache },
  });

async function synced(): Promise<{ cache: string; file: string; remove: () => void }> {
  const dir = tempDir("tokenintel-pf-cache-");
  const r = await cli(dir.path, ["directory", "--sync", "-c", "base"]);
  expect(r.code).toBe(0);
  return { cache: dir.path, file: join(dir.path, "index", "tokens-base.json"), remove: dir.remove };
}

describe("the token index through the binary", () => {
  it("one others can write is not used: --resolve refuses (exit 2), config list and --tickers say why", async () => {
    const { cache, file, remove } = await synced();
    try {
      chmodSync(file, 0o666);
      const before = server.requests.length;
      const r = await cli(cache, ["market", "-c", "base", "--tickers", "AAA", "--resolve", "--json"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `tokenintel: --resolve: not used: the base token index ${file} is writable by others (mode 0666); run: chmod 600 '${file}'\n`,
      );
      expect(server.requests.length).toBe(before);
      const list = await cli(cache, ["config", "list"]);
      expect(list.stdout).toMatch(
        /^token-index {2}base \(not used: the base token index .* is writable by others/m,
      );
      const plain = await cli(cache, ["market", "-c", "base", "--tickers", "AAA", "--json"]);
      expect(plain.stderr).toContain("tokenintel: warning: not used: the base token index");
    } finally {
      remove();
    }
  });

  it("a damaged index is called damaged, with the command that rebuilds it", async () => {
    const { cache, file, remove } = await synced();
    try {
      writeFileSync(file, readFileSync(file, "utf8").slice(0, 40));
      const r = await cli(cache, ["market", "-c", "base", "--tickers", "AAA", "--resolve"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `tokenintel: --resolve: the base token index ${file} is damaged (not valid JSON); run 'tokenintel directory --sync -c base' to rebuild it\n`,
      );
      const list = await cli(cache, ["config", "list"]);
      expect(list.stdout).toMatch(
        /^token-index {2}base \(damaged: run 'tokenintel directory --sync -c base'\)/m,
      );
    } finally {
      remove();
    }
  });

  it("a failed write is exit 1 with one line, and the previous index stays", async () => {
    const { cache, file, remove } = await synced();
    try {
      const good = readFileSync(file, "utf8");
      // The rename cannot replace the file: stands for any write that fails at its last step.
      const blocked = join(cache, "index", "tokens-solana.json");
      mkdirSync(join(blocked, "inside"), { recursive: true });
      const r = await cli(cache, ["directory", "--sync"]);
      expect(r.code).toBe(1);
      const errors = r.stderr.split("\n").filter((l) => l && !l.startsWith("token index:"));
      expect(errors).toEqual([
        expect.stringMatching(
          /^tokenintel: could not write the token index .*tokens-solana\.json: .*; the previous one was kept$/,
        ),
      ]);
      expect(readFileSync(file, "utf8")).not.toBe(""); // base was written whole before solana failed
      expect(JSON.parse(readFileSync(file, "utf8")).tokens).toEqual(JSON.parse(good).tokens);
    } finally {
      remove();
    }
  });

  it("a cache folder that cannot take the index fails before any page is downloaded", async () => {
    const base = tempDir("tokenintel-pf-bad-");
    try {
      writeFileSync(join(base.path, "a-file"), "");
      const shared = join(base.path, "shared");
      mkdirSync(shared);
      chmodSync(shared, 0o777);
      for (const [cache, reason] of [
        [
          join(base.path, "a-file", "cache"),
          /^tokenintel: cannot use the cache folder .*: a part of the path is not a folder \(ENOTDIR\)\n$/,
        ],
        [
          shared,
          /^tokenintel: the cache folder .*shared is writable by others \(mode 0777\); run: chmod 700 /,
        ],
      ] as const) {
        const before = server.requests.length;
        const r = await cli(cache, ["directory", "--sync", "-c", "base"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(reason);
        expect(server.requests.length, "requests made before failing").toBe(before);
      }
    } finally {
      base.remove();
    }
  });
});
