import { join } from "node:path";
import { cacheDir } from "../config/locations.js";
import {
  assertWritableDir,
  checkPrivateDir,
  makePrivateDir,
  type PrivacyChecks,
  readPrivateFile,
  type WriteCalls,
  writePrivateFile,
} from "../files/private.js";

// The local token index: the directory (symbol, name, address, id, ecosystem) of each chain, kept
// in the user's cache folder by `directory --sync`. Shell completion reads it on every Tab, so this
// module imports nothing but node:fs, node:path, the folders and the private-file module, and reading
// it never makes a request. The index decides where --resolve sends a query, so one in a folder or
// file that another user owns, or that others may write to, is never trusted (a shared
// TOKENINTEL_CACHE_DIR such as /tmp/shared), and it is written through the private-file module.

export const INDEX_CHAINS = ["base", "solana"] as const;
export type IndexChain = (typeof INDEX_CHAINS)[number];

/** One token: [symbol, name, address, id, ecosystem] (arrays keep a large index small). */
export type IndexEntry = [symbol: string, name: string, address: string, id: string, ecosystem: string];

export interface TokenIndex {
  version: 1;
  chain: IndexChain;
  /** When the sync finished, ISO 8601. */
  syncedAt: string;
  /** Where it came from: "sandbox" or the API's origin (never a key). */
  source: string;
  tokens: IndexEntry[];
}

/**
 * The folder of the index: <cache folder>/index, the cache folder being TOKENINTEL_CACHE_DIR or the
 * platform's. The sandbox's tokens are kept apart (index-sandbox), so trying an example with
 * --sandbox never replaces the index of the real service, which completion offers.
 */
export function indexDir(env: NodeJS.ProcessEnv = process.env, sandbox = false): string {
  return join(cacheDir(env), sandbox ? "index-sandbox" : "index");
}

export function indexFile(chain: IndexChain, env: NodeJS.ProcessEnv = process.env, sandbox = false): string {
  return join(indexDir(env, sandbox), `tokens-${chain}.json`);
}

/** The source of an index synced from the sandbox (--sandbox). */
export const SANDBOX_SOURCE = "sandbox";

/** The largest index read (the directory of a chain is a few MB). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

function isEntry(value: unknown): value is IndexEntry {
  return Array.isArray(value) && value.length === 5 && value.every((v) => typeof v === "string");
}

/** What reading a chain's index found: none, one that is not trusted or is damaged (and why), or it. */
export type IndexState =
  | { state: "missing" }
  | { state: "untrusted"; reason: string }
  | { state: "damaged"; reason: string }
  | { state: "ok"; index: TokenIndex };

/** The chain's index and whether it can be trusted; never throws. */
export function loadIndex(
  chain: IndexChain,
  env: NodeJS.ProcessEnv = process.env,
  sandbox = false,
  checks: PrivacyChecks = {},
): IndexState {
  const file = indexFile(chain, env, sandbox);
  const read = readPrivateFile(file, `the ${chain} token index`, MAX_INDEX_BYTES, checks);
  if (read.state === "missing") return read;
  if (read.state === "unreadable") return { state: "damaged", reason: read.reason };
  if (read.state === "untrusted") return read;
  for (const [dir, what] of [
    [cacheDir(env), "the cache folder"],
    [indexDir(env, sandbox), "the token index folder"],
  ] as const) {
    try {
      checkPrivateDir(dir, what, checks);
    } catch (error) {
      return { state: "untrusted", reason: (error as Error).message };
    }
  }
  const damaged = (why: string): IndexState => ({
    state: "damaged",
    reason: `the ${chain} token index ${file} is damaged (${why}); run 'tokenintel directory --sync -c ${chain}${sandbox ? " --sandbox" : ""}' to rebuild it`,
  });
  let value: Partial<TokenIndex>;
  try {
    value = JSON.parse(read.text) as Partial<TokenIndex>;
  } catch {
    return damaged("not valid JSON");
  }
  if (value?.version !== 1 || value.chain !== chain || !Array.isArray(value.tokens))
    return damaged("not an index of this chain");
  if (typeof value.syncedAt !== "string" || typeof value.source !== "string")
    return damaged("no sync time or source");
  return { state: "ok", index: { ...value, tokens: value.tokens.filter(isEntry) } as TokenIndex };
}

/** The chain's index, or undefined when there is none, or it is damaged or not trusted (completion). */
export function readIndex(
  chain: IndexChain,
  env: NodeJS.ProcessEnv = process.env,
  sandbox = false,
): TokenIndex | undefined {
  const loaded = loadIndex(chain, env, sandbox);
  return loaded.state === "ok" ? loaded.index : undefined;
}

/**
 * Makes the index folder (0700, in a cache folder of the user's own) and checks that a file can be
 * written in it: called before a sync downloads anything. Throws the one-line reason (exit 1).
 */
export function prepareIndexDir(env: NodeJS.ProcessEnv = process.env, sandbox = false): string {
  const dir = indexDir(env, sandbox);
  makePrivateDir(cacheDir(env), "the cache folder");
  makePrivateDir(dir, "the token index folder");
  assertWritableDir(dir, "the token index folder");
  return dir;
}

/**
 * Writes the chain's index whole or not at all (the private-file module: a random exclusive
 * temporary file, fsync, rename): 0600 in a 0700 folder. A failed write keeps the previous index
 * and throws one line (exit 1).
 */
export function writeIndex(
  index: TokenIndex,
  env: NodeJS.ProcessEnv = process.env,
  calls: Partial<WriteCalls> = {},
): string {
  const sandbox = index.source === SANDBOX_SOURCE;
  prepareIndexDir(env, sandbox);
  const file = indexFile(index.chain, env, sandbox);
  writePrivateFile(file, `${JSON.stringify(index)}\n`, "the token index", calls);
  return file;
}

/** "42s", "5m", "3h", "2d": how long ago the index was synced. */
export function ageOf(syncedAt: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(syncedAt)) / 1000));
  if (!Number.isFinite(seconds)) return "unknown";
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** The tokens of the index that carry this ticker (case-insensitive). */
export function tokensWithTicker(index: TokenIndex, ticker: string): IndexEntry[] {
  const wanted = ticker.toLowerCase();
  return index.tokens.filter((t) => t[0].toLowerCase() === wanted);
}

/** For `config list`: "base 1000 tokens, synced 5m ago; solana (none)", or undefined with no index at all. */
export function describeIndex(env: NodeJS.ProcessEnv = process.env, now = Date.now()): string {
  const describe = (sandbox: boolean) =>
    INDEX_CHAINS.map((chain) => {
      const loaded = loadIndex(chain, env, sandbox);
      const sync = `tokenintel directory --sync -c ${chain}${sandbox ? " --sandbox" : ""}`;
      if (loaded.state === "missing") return `${chain} (not synced)`;
      if (loaded.state === "damaged") return `${chain} (damaged: run '${sync}')`;
      if (loaded.state === "untrusted") return `${chain} (not used: ${loaded.reason})`;
      const { index } = loaded;
      return `${chain} ${index.tokens.length} tokens, synced ${ageOf(index.syncedAt, now)} ago (${index.syncedAt}) from ${index.source}`;
    });
  const live = `${describe(false).join("; ")}; refresh with 'tokenintel directory --sync'`;
  // The sandbox's index (completion with --sandbox) is named only once there is one.
  const sandbox = describe(true);
  if (sandbox.every((part) => part.endsWith("(not synced)"))) return live;
  return `${live}. Sandbox: ${sandbox.join("; ")}`;
}

/** Where a run's requests go, as an index records it: "sandbox" or the API's origin. */
export async function indexSource(ctx: {
  settings: { globals: { sandbox?: boolean }; baseUrl(): Promise<string> };
}): Promise<string> {
  return ctx.settings.globals.sandbox ? SANDBOX_SOURCE : new URL(await ctx.settings.baseUrl()).origin;
}
