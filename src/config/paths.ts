import { chmodSync, mkdirSync, readFileSync, type Stats, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import envPaths from "env-paths";
import { UsageError } from "../errors.js";

/** The folder of the config store: TOKENINTEL_CONFIG_DIR, or the platform's config folder. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_CONFIG_DIR || envPaths("tokenintel", { suffix: "" }).config;
}

/**
 * The folder of tokenintel's caches (answers, the token index): TOKENINTEL_CACHE_DIR, or the
 * platform's cache folder ($XDG_CACHE_HOME/tokenintel, ~/.cache/tokenintel).
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_CACHE_DIR || envPaths("tokenintel", { suffix: "" }).cache;
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "config.json");
}

/** Mode of every folder tokenintel creates for its config (whatever the umask). */
export const CONFIG_DIR_MODE = 0o700;
/** Mode of the config file. */
export const CONFIG_FILE_MODE = 0o600;

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
    throw new UsageError(
      `cannot read the config ${kind} ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
    );
  }
  const reason = untrustedReason(path, kind, facts, myUid);
  if (reason) throw new UsageError(reason);
  return true;
}

/**
 * Creates the config folder and every missing folder above it with mode 0700, whatever the umask
 * (mkdir's mode is filtered by the umask, so each new folder is chmod-ed as well).
 */
export function ensureConfigDir(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      statSync(d);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(d) === d) break;
      missing.unshift(d);
    }
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode: CONFIG_DIR_MODE });
      chmodSync(d, CONFIG_DIR_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new UsageError(
        `cannot create the config folder ${d}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
      );
    }
  }
}

export interface StoredConfig {
  apiKey?: string;
  settings?: Record<string, string>;
}

/**
 * Reads the store without loading conf (and its JSON-schema validator): every data command reads
 * settings, few write them. Writes go through ConfigStore, which uses the same file.
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
    throw new UsageError(
      `cannot read the config file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  try {
    const value = JSON.parse(text || "{}") as unknown;
    return value && typeof value === "object" ? (value as StoredConfig) : {};
  } catch {
    throw new UsageError(`the config file ${file} is not valid JSON; fix it or remove it`);
  }
}
