import { readFileSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import { describeFsError } from "../files/errors.js";
import {
  createPrivateDirs,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  PrivateFileError,
} from "../files/private.js";
import { platformFolder } from "./folders.js";

/** The folder of the config store: TOKENINTEL_CONFIG_DIR, or the platform's config folder. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_CONFIG_DIR || platformFolder("config", env);
}

/**
 * The folder of tokenintel's caches (answers, the token index): TOKENINTEL_CACHE_DIR, or the
 * platform's cache folder ($XDG_CACHE_HOME/tokenintel, ~/.cache/tokenintel).
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_CACHE_DIR || platformFolder("cache", env);
}

/** tokenintel's data folder (the payment ledger): TOKENINTEL_DATA_DIR, or the platform's ($XDG_DATA_HOME/tokenintel). */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_DATA_DIR || platformFolder("data", env);
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "config.json");
}

/** Mode of every folder tokenintel creates for its config (whatever the umask). */
export const CONFIG_DIR_MODE = PRIVATE_DIR_MODE;
/** Mode of the config file. */
export const CONFIG_FILE_MODE = PRIVATE_FILE_MODE;

/** What the ownership check needs to know about a path (injectable for tests). */
export interface PathFacts {
  uid: number;
  mode: number;
}

/**
 * Why a config file or folder must not be trusted, as ssh judges its own files: it belongs to
 * someone else (root included, unless we are root), or others than the owner may write to it.
 * Undefined when it is fine.
 */
export function untrustedReason(
  path: string,
  kind: "file" | "folder",
  facts: PathFacts,
  myUid: number,
): string | undefined {
  if (facts.uid !== myUid) {
    return `the config ${kind} ${path} is not yours (owner uid ${facts.uid}); remove it, or set TOKENINTEL_CONFIG_DIR to a folder of your own`;
  }
  if ((facts.mode & 0o022) !== 0) {
    const mode = (facts.mode & 0o777).toString(8).padStart(4, "0");
    const fix = (kind === "file" ? CONFIG_FILE_MODE : CONFIG_DIR_MODE).toString(8);
    return `the config ${kind} ${path} is writable by others (mode ${mode}); run: chmod ${fix} '${path}'`;
  }
  return undefined;
}

/**
 * Refuses (exit 2, like every config error) a config file or folder that is not the user's own or
 * that others may write to: its settings choose where the key is sent. Missing paths pass.
 */
export function assertTrusted(
  path: string,
  kind: "file" | "folder",
  stat: (path: string) => Stats = statSync,
  myUid: number | undefined = process.getuid?.(),
): boolean {
  if (myUid === undefined) return true; // no owners to compare (Windows)
  let facts: Stats;
  try {
    facts = stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new UsageError(`cannot read the config ${kind} ${path}: ${describeFsError(error)}`);
  }
  const reason = untrustedReason(path, kind, facts, myUid);
  if (reason) throw new UsageError(reason);
  return true;
}

/**
 * Creates the config folder and every missing folder above it with mode 0700, whatever the umask.
 * A folder that cannot be made is a config error (exit 2), said in one line.
 */
export function ensureConfigDir(dir: string): void {
  try {
    createPrivateDirs(dir, "the config folder");
  } catch (error) {
    throw asConfigError(error);
  }
}

/** A private-file failure on the config store is a config error: exit 2, the same one line. */
export function asConfigError(error: unknown): unknown {
  return error instanceof PrivateFileError ? new UsageError(error.message) : error;
}

export interface StoredConfig {
  apiKey?: string;
  settings?: Record<string, string>;
}

/** The config file's text for a value, as conf writes it (tab-indented JSON). */
export function serializeConfig(value: unknown): string {
  return JSON.stringify(value, undefined, "\t");
}

/**
 * The config file's value from its text: what conf reads (its `deserialize`) and what the fast
 * reader reads, so the two can never disagree. A file that is not a JSON object is a config error
 * that names the file and never quotes it (it holds the key).
 */
export function parseConfig(text: string, file: string): StoredConfig {
  let value: unknown;
  try {
    value = JSON.parse(text || "{}");
  } catch {
    throw new UsageError(`the config file ${file} is not valid JSON; fix it or remove it`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new UsageError(`the config file ${file} does not hold a JSON object; fix it or remove it`);
  return value as StoredConfig;
}

/**
 * Reads the store without loading conf (and its JSON-schema validator): every data command reads
 * settings, few write them. Writes go through ConfigStore, which uses the same file and format.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): StoredConfig {
  const file = configFile(env);
  if (!assertTrusted(file, "file")) return {};
  assertTrusted(configDir(env), "folder");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new UsageError(`cannot read the config file ${file}: ${describeFsError(error)}`);
  }
  return parseConfig(text, file);
}
