import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../../commands/harness.js";
import { useSandbox, useServers } from "../fixtures.js";
import type { HostileServer } from "../hostile-server.js";
import { has, shell, useShells } from "../shells.js";

// The local token index `directory --sync` writes: private files without the key, its age in config
// list, tickers completed from it with no request, --resolve selecting by its addresses, the note on
// a ticker several tokens share, and the sandbox's index kept apart from the real one.

const KEY = "ti_test_completion_index_key_5d1e";
const servers = useServers();
const config = { path: servers.folder("tokenintel-ci-config-") };
const cache = { path: servers.folder("tokenintel-ci-cache-") };
const { shellEnv, bashComplete, lastCompopt } = useShells(config.path);

describe("the local token index", () => {
  const sandbox = useSandbox({ apiKey: KEY });
  /** The index these tests read, synced once into the file's cache folder by whichever test asks first. */
  let synced: ReturnType<typeof run> | undefined;
  const syncIndex = () =>
    (synced ??= run(["--base-url", sandbox.url, "directory", "--sync"], config.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: cache.path },
    }));

  it("directory --sync stores both chains: 0600 files in a 0700 folder, no key, progress on stderr", async () => {
    const r = await syncIndex();
    expect(r.stderr).toContain("token index: syncing the base directory...");
    expect(r.stderr).toMatch(/token index: base: 1,000 tokens from \d+ pages/);
    expect(r.stderr).toMatch(/token index: solana: 300 tokens from \d+ pages/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const dir = join(cache.path, "index");
    expect(statSync(cache.path).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir).sort()).toEqual(["tokens-base.json", "tokens-solana.json"]);
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      expect(statSync(file).mode & 0o777, name).toBe(0o600);
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("api_key");
    }
    const base = JSON.parse(readFileSync(join(dir, "tokens-base.json"), "utf8"));
    expect(base.tokens).toHaveLength(1000);
    const virtual = sandbox.data.findBySymbols("base", ["VIRTUAL"])[0]!;
    expect(base.tokens).toContainEqual([
      "VIRTUAL",
      "Virtual Protocol",
      virtual.address,
      virtual.id,
      virtual.ecosystem,
    ]);

    // One chain with --chain: only that file changes.
    const one = { path: servers.folder("tokenintel-ci-one-") };
    const b = await run(["--base-url", sandbox.url, "directory", "--sync", "-c", "solana"], config.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: one.path },
    });
    expect(b.code).toBe(0);
    expect(readdirSync(join(one.path, "index"))).toEqual(["tokens-solana.json"]);
  });

  it("--sync cannot be combined with a selection", async () => {
    const r = await run(["--sandbox", "directory", "--sync", "--limit", "5"], config.path, {
      env: { TOKENINTEL_CACHE_DIR: cache.path },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tokenintel: --sync .* cannot be combined with --limit\n$/);
  });

  it("config list says how old the index is", async () => {
    expect((await syncIndex()).code).toBe(0);
    const r = await run(["config", "list"], config.path, { env: { TOKENINTEL_CACHE_DIR: cache.path } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^token-index {2}base 1000 tokens, synced \d+[smhd] ago \(\d{4}-\d\d-\d\dT[^)]+\) from /m,
    );
    expect(r.stdout).toMatch(/; solana 300 tokens, synced \d+[smhd] ago/);
    const none = { path: servers.folder("tokenintel-ci-none-") };
    const n = await run(["config", "list"], config.path, { env: { TOKENINTEL_CACHE_DIR: none.path } });
    expect(n.stdout).toMatch(/^token-index {2}base \(not synced\); solana \(not synced\)/m);
  });

  it("completes tickers for --tickers from the index with the sandbox stopped, and asks no server", async () => {
    // Its own sync, from a sandbox that is then stopped.
    const own = { path: servers.folder("tokenintel-ci-offline-") };
    const synced = await servers.sandbox({ apiKey: KEY });
    const s = await run(["--base-url", synced.url, "directory", "--sync"], config.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: own.path },
    });
    expect(s.code).toBe(0);
    await synced.close();
    const afterSync = synced.stats.requests;
    // Any request would reach this server (the configured base URL), and be counted.
    const watcher = await servers.stub((_req, res) => {
      res.end("{}");
    });
    const env = shellEnv(own.path, { TOKENINTEL_BASE_URL: watcher.url, TOKENINTEL_API_KEY: KEY });

    expect(await bashComplete(["tokenintel", "market", "-c", "base", "--tickers", "VIR"], env)).toEqual([
      "VIRTUAL",
    ]);
    // Case-insensitive prefix; the last item of a list is completed, the ones before it kept.
    expect(await bashComplete(["tokenintel", "market", "--tickers", "AERO,de"], env)).toEqual(["AERO,DEGEN"]);
    // A list item completed gets no space after it: a comma and the next item may follow.
    expect(lastCompopt).toEqual(["COMPOPT -o nospace"]);
    expect(await bashComplete(["tokenintel", "ta", "--chain=base", "--tickers", "AIX"], env)).toEqual([
      "AIXBT",
    ]);
    expect(
      await bashComplete(["tokenintel", "--color", "never", "agents", "-c", "base", "--tickers", "LUN"], env),
    ).toEqual(["LUNA"]);
    // A ticker with a comma is offered as the list writes it (\,), quoted for the shell.
    expect(await bashComplete(["tokenintel", "market", "-c", "base", "--tickers", "COMMA"], env)).toEqual([
      "COMMA\\\\\\,COIN",
    ]);
    // The chain on the line narrows the tickers to that chain's index.
    const solanaSymbol = JSON.parse(readFileSync(join(own.path, "index", "tokens-solana.json"), "utf8"))
      .tokens[0][0] as string;
    expect(
      await bashComplete(["tokenintel", "market", "-c", "solana", "--tickers", solanaSymbol], env),
    ).toContain(solanaSymbol);
    expect(await bashComplete(["tokenintel", "market", "-c", "solana", "--tickers", "VIRTU"], env)).toEqual(
      [],
    );
    if (has("fish")) {
      const fish = await shell(
        "fish",
        [
          "-c",
          "tokenintel completion fish | source; complete -C 'tokenintel market -c base --tickers AERO,DE'",
        ],
        env,
      );
      expect(fish.stdout.split("\t")[0]).toBe("AERO,DEGEN");
    }
    expect(watcher.requests).toHaveLength(0);
    expect(synced.stats.requests).toBe(afterSync);
  });
});

describe("--resolve and shared tickers", () => {
  // A directory where two tokens share a ticker (the sandbox's tickers are unique per chain), and a
  // market endpoint that answers whatever it is asked.
  const DIRECTORY = [
    { id: "id-a", symbol: "AAA", name: "Triple A", address: "0xa1", chain: "base", ecosystem: "base" },
    { id: "id-d1", symbol: "DUP", name: "Dup One", address: "0xd1", chain: "base", ecosystem: "virtuals" },
    { id: "id-d2", symbol: "DUP", name: "Dup Two", address: "0xd2", chain: "base", ecosystem: "base" },
    { id: "id-e", symbol: "EVIL\u001b[31m", name: "Evil", address: "0xee", chain: "base", ecosystem: "base" },
  ];
  let server: HostileServer;
  const own = { path: servers.folder("tokenintel-ci-dup-") };

  beforeAll(async () => {
    server = await servers.stub((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      res.setHeader("content-type", "application/json");
      if (url.pathname === "/v1/crypto-metainfo") {
        res.end(
          JSON.stringify({ success: true, data: url.searchParams.get("page") === "1" ? DIRECTORY : [] }),
        );
        return;
      }
      const addresses = url.searchParams.get("token_addresses")?.split(",") ?? [];
      const data = DIRECTORY.filter((t) => addresses.includes(t.address)).map((t) => ({
        id: t.id,
        token_info: {
          id: t.id,
          symbol: t.symbol,
          name: t.name,
          ca: t.address,
          chain: "base",
          ecosystem: t.ecosystem,
        },
      }));
      res.end(
        JSON.stringify({
          success: true,
          data,
          meta: { pagination: { page: 1, pageSize: 30, pageCount: 1, total: data.length } },
        }),
      );
    });
    const s = await run(["--base-url", server.url, "directory", "--sync", "-c", "base"], config.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: own.path },
    });
    expect(s.code).toBe(0);
    expect(s.stderr).toContain("1 tickers are shared by several tokens");
  });

  const cli = (args: string[]) =>
    run(["--base-url", server.url, ...args], config.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: own.path },
    });

  it("--resolve selects by token_addresses from the index, with no ticker sent", async () => {
    const before = server.requests.length;
    const r = await cli(["market", "-c", "base", "--tickers", "dup,AAA", "--resolve", "--json"]);
    expect(r.code).toBe(0);
    const sent = server.requests.slice(before).map((q) => new URL(q.url, "http://x"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.pathname).toBe("/v1/crypto-market/");
    expect(sent[0]!.searchParams.get("token_addresses")).toBe("0xd1,0xd2,0xa1");
    expect(sent[0]!.searchParams.has("token_tickers")).toBe(false);
    expect(JSON.parse(r.stdout).map((t: { id: string }) => t.id)).toEqual(["id-d1", "id-d2", "id-a"]);
    expect(r.stderr).toContain(
      "tokenintel: warning: ticker dup is shared by 2 tokens on base: 0xd1 (Dup One), 0xd2 (Dup Two) (all of them are requested)",
    );
  });

  it("names a shared ticker with its tokens' addresses when --tickers is used without --resolve", async () => {
    const before = server.requests.length;
    const r = await cli(["market", "-c", "base", "--tickers", "DUP", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "tokenintel: warning: ticker DUP is shared by 2 tokens on base: 0xd1 (Dup One), 0xd2 (Dup Two); use --addresses to pick one",
    );
    const sent = new URL(server.requests[before]!.url, "http://x");
    expect(sent.searchParams.get("token_tickers")).toBe("DUP");
    // A ticker only one token carries says nothing.
    const single = await cli(["market", "-c", "base", "--tickers", "AAA", "--json"]);
    expect(single.stderr).not.toContain("shared");
  });

  it("--resolve without an index, or with tickers it does not know, says so", async () => {
    const none = { path: servers.folder("tokenintel-ci-noindex-") };
    const before = server.requests.length;
    const r = await run(
      ["--base-url", server.url, "market", "-c", "base", "--tickers", "DUP", "--resolve"],
      config.path,
      {
        env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: none.path },
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "tokenintel: --resolve needs the token index of base: run 'tokenintel directory --sync -c base' first\n",
    );
    expect(server.requests.length).toBe(before);
    const unknown = await cli(["market", "-c", "base", "--tickers", "NOPE", "--resolve"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^tokenintel: warning: not in the base token index \(synced \d+s ago\): NOPE\n/,
    );
    const notTickers = await cli(["market", "-c", "base", "--addresses", "0xa1", "--resolve"]);
    expect(notTickers.code).toBe(2);
    expect(notTickers.stderr).toBe("tokenintel: --resolve goes with --tickers\n");
  });

  it("an index synced from another API is not used: --resolve says so, no shared-ticker note", async () => {
    const other = await servers.sandbox({ apiKey: KEY });
    const args = ["--base-url", other.url, "market", "-c", "base", "--tickers", "DUP"];
    const env = { TOKENINTEL_API_KEY: KEY, TOKENINTEL_CACHE_DIR: own.path };
    const resolved = await run([...args, "--resolve"], config.path, { env });
    expect(resolved.code).toBe(2);
    expect(resolved.stderr).toBe(
      `tokenintel: --resolve: the base token index was synced from ${server.url}, not ${other.url}; run 'tokenintel directory --sync -c base' against it first\n`,
    );
    expect(other.stats.requests).toBe(0);
    const plain = await run(args, config.path, { env });
    expect(plain.stderr).not.toContain("shared");
  });

  it("--sandbox keeps its own index: the example syncs and resolves without touching the real one", async () => {
    const box = { path: servers.folder("tokenintel-ci-box-") };
    const env = { env: { TOKENINTEL_CACHE_DIR: box.path } };
    const sync = await run(["directory", "--sandbox", "--sync", "-c", "base"], config.path, env);
    expect(sync.code).toBe(0);
    // Node's compile cache (Node 22+) lives beside the indexes; only the sandbox's index is new.
    expect(readdirSync(box.path).filter((n) => n !== "node-compile-cache")).toEqual(["index-sandbox"]);
    const r = await run(
      ["market", "--sandbox", "-c", "base", "--tickers", "VIRTUAL,AERO", "--resolve", "--json"],
      config.path,
      env,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { token_info: { symbol: string } }) => t.token_info.symbol)).toEqual([
      "VIRTUAL",
      "AERO",
    ]);
    // Completion reads the sandbox's index only for a line with --sandbox;
    // config list names both, the real service's first.
    const shellBox = shellEnv(box.path);
    expect(
      await bashComplete(["tokenintel", "market", "--sandbox", "-c", "base", "--tickers", "AER"], shellBox),
    ).toEqual(["AERO"]);
    expect(await bashComplete(["tokenintel", "market", "-c", "base", "--tickers", "AER"], shellBox)).toEqual(
      [],
    );
    if (has("fish")) {
      const fish = await shell(
        "fish",
        [
          "-c",
          "tokenintel completion fish | source; complete -C 'tokenintel market --sandbox --tickers VIRTUAL,AER'",
        ],
        shellBox,
      );
      expect(fish.stdout.split("\t")[0]).toBe("VIRTUAL,AERO");
    }
    const list = await run(["config", "list"], config.path, env);
    expect(list.stdout).toMatch(
      /^token-index {2}base \(not synced\); solana \(not synced\); refresh with 'tokenintel directory --sync'\. Sandbox: base \d+ tokens, synced \d+s ago \(.*\) from sandbox; solana \(not synced\)$/m,
    );
  });

  it("completion never offers a ticker with control characters from the server", async () => {
    const env = shellEnv(own.path, { TOKENINTEL_BASE_URL: server.url });
    const before = server.requests.length;
    expect(await bashComplete(["tokenintel", "market", "--tickers", ""], env)).toEqual(["AAA", "DUP"]);
    expect(server.requests.length).toBe(before);
  });
});
