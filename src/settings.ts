import type { ConfigKey } from "./config/keys.js";
import { readConfig, type StoredConfig } from "./config/paths.js";
import type { GLOBAL_FLAGS } from "./flags/global.js";
import type { FlagValues } from "./flags/table.js";
import type { Schema } from "./flags/values.js";
import { DEFAULT_BASE_URL } from "./spec/api.js";

export type GlobalOptions = FlagValues<typeof GLOBAL_FLAGS>;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_CONCURRENCY = 4;

/** Environment variables that stand for a setting. */
const ENV_FOR: Partial<Record<ConfigKey, string>> = {
  "base-url": "TOKENINTEL_BASE_URL",
  chain: "TOKENINTEL_CHAIN",
  output: "TOKENINTEL_OUTPUT",
  timeout: "TOKENINTEL_TIMEOUT",
  retries: "TOKENINTEL_RETRIES",
  "pay-network": "TOKENINTEL_PAY_NETWORK",
  "daily-cap": "TOKENINTEL_DAILY_CAP",
  cache: "TOKENINTEL_CACHE",
};

/** The environment variable that stands for a setting, if one does. */
export function envVariableFor(key: ConfigKey): string | undefined {
  return ENV_FOR[key];
}

export type KeySource = "flag" | "env" | "store" | "sandbox";

/**
 * A run's settings: each from its flag, then its environment variable, then the config store. A
 * flag was checked when the command line was read; a value from the environment or the store is
 * checked when it is first used, under its own name (TOKENINTEL_CHAIN, config chain), so a bad
 * stored value never stops `config unset` from repairing it.
 */
export class Settings {
  private storedConfig: StoredConfig | undefined;

  constructor(
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The stored settings and key, read once without loading the conf store. */
  stored(): StoredConfig {
    this.storedConfig ??= readConfig(this.env);
    return this.storedConfig;
  }

  /** The raw value of a setting from the environment or the store, and where it came from. */
  raw(key: ConfigKey): { value: string; source: string } | undefined {
    const envName = ENV_FOR[key];
    const fromEnv = envName ? this.env[envName] : undefined;
    if (fromEnv) return { value: fromEnv, source: envName! };
    const value = this.stored().settings?.[key];
    return typeof value === "string" ? { value, source: `config ${key}` } : undefined;
  }

  /** A setting checked by `schema`; a flag's value (already checked) wins. */
  async get<T>(key: ConfigKey, schema: () => Promise<Schema<T>>, flagValue?: T): Promise<T | undefined> {
    if (flagValue !== undefined) return flagValue;
    const found = this.raw(key);
    if (!found) return undefined;
    const { parseValue } = await import("./flags/values.js");
    return parseValue(found.source, await schema(), found.value);
  }

  async baseUrl(): Promise<string> {
    const url = await this.get(
      "base-url",
      async () => (await import("./flags/values.js")).urlSchema,
      this.globals.baseUrl,
    );
    return url ?? DEFAULT_BASE_URL;
  }

  async timeoutMs(): Promise<number> {
    const value = await this.get(
      "timeout",
      async () => (await import("./flags/values.js")).durationSchema,
      this.globals.timeout,
    );
    return value ?? DEFAULT_TIMEOUT_MS;
  }

  async retries(): Promise<number> {
    const schema = async () => (await import("./flags/values.js")).wholeNumber("of 0 or more", 0);
    return (await this.get("retries", schema, this.globals.retries)) ?? DEFAULT_RETRIES;
  }

  /** How long a cached answer stands (--cache, TOKENINTEL_CACHE, config cache); 0: no cache. */
  async cacheTtlMs(): Promise<number> {
    if (this.globals.cache === false) return 0;
    const schema = async () => (await import("./flags/values.js")).ttlSchema;
    return (await this.get("cache", schema, this.globals.cache)) ?? 0;
  }

  get concurrency(): number {
    return this.globals.concurrency ?? DEFAULT_CONCURRENCY;
  }

  /** The API key and where it comes from: flag, sandbox, environment, then store. */
  async apiKey(): Promise<{ key: string; source: KeySource } | undefined> {
    if (this.globals.apiKey) return { key: this.globals.apiKey, source: "flag" };
    if (this.globals.sandbox) {
      const { SANDBOX_API_KEY } = await import("./sandbox/tokens.js");
      return { key: SANDBOX_API_KEY, source: "sandbox" };
    }
    const fromEnv = this.env.TOKENINTEL_API_KEY;
    if (fromEnv) return { key: fromEnv, source: "env" };
    const stored = this.stored().apiKey;
    return typeof stored === "string" && stored ? { key: stored, source: "store" } : undefined;
  }
}
