import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { cacheDir } from "../config/paths.js";

// The local token index: the directory (symbol, name, address, id, ecosystem) of each chain, kept
// in the user's cache folder by `directory --sync`. Shell completion reads it on every Tab, so this
// module imports nothing but node:fs, node:path and env-paths, and reading it never makes a request.

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

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

function isEntry(value: unknown): value is IndexEntry {
  return Array.isArray(value) && value.length === 5 && value.every((v) => typeof v === "string");
}

/** The chain's index, or undefined when there is none or it cannot be read (a damaged one is ignored). */
export function readIndex(
  chain: IndexChain,
  env: NodeJS.ProcessEnv = process.env,
  sandbox = false,
): TokenIndex | undefined {
  let text: string;
  try {
    text = readFileSync(indexFile(chain, env, sandbox), "utf8");
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<TokenIndex>;
    if (value?.version !== 1 || value.chain !== chain || !Array.isArray(value.tokens)) return undefined;
    if (typeof value.syncedAt !== "string" || typeof value.source !== "string") return undefined;
    return { ...value, tokens: value.tokens.filter(isEntry) } as TokenIndex;
  } catch {
    return undefined;
  }
}

/** Creates the folder and each missing one above it with mode 0700, whatever the umask. */
function ensureDir(dir: string): void {
  const target = resolve(dir);
  mkdirSync(target, { recursive: true, mode: DIR_MODE });
  // mkdir's mode passes through the umask; the index folder itself is made private in any case.
  for (let d = target, i = 0; i < 2; d = dirname(d), i++) {
    try {
      chmodSync(d, DIR_MODE);
    } catch {
      // A parent that is not ours stays as it is.
    }
  }
}

/** Writes the chain's index atomically (a private temporary file, then a rename): 0600 in a 0700 folder. */
export function writeIndex(index: TokenIndex, env: NodeJS.ProcessEnv = process.env): string {
  const file = indexFile(index.chain, env, index.source === SANDBOX_SOURCE);
  ensureDir(dirname(file));
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, "w", FILE_MODE);
  try {
    writeSync(fd, `${JSON.stringify(index)}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  chmodSync(temp, FILE_MODE);
  renameSync(temp, file);
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
  const parts = INDEX_CHAINS.map((chain) => {
    const index = readIndex(chain, env);
    if (!index) return `${chain} (not synced)`;
    return `${chain} ${index.tokens.length} tokens, synced ${ageOf(index.syncedAt, now)} ago (${index.syncedAt}) from ${index.source}`;
  });
  return `${parts.join("; ")}; refresh with 'tokenintel directory --sync'`;
}

/** Where a run's requests go, as an index records it: "sandbox" or the API's origin. */
export async function indexSource(ctx: {
  settings: { globals: { sandbox?: boolean }; baseUrl(): Promise<string> };
}): Promise<string> {
  return ctx.settings.globals.sandbox ? SANDBOX_SOURCE : new URL(await ctx.settings.baseUrl()).origin;
}
