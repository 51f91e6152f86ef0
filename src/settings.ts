import { join } from "node:path";
import type { ConfigKey } from "./config/keys.js";
import { configDir, configFile, readConfig, type StoredConfig } from "./config/locations.js";
import { UsageError } from "./errors.js";
import type { GLOBAL_FLAGS } from "./flags/global.js";
import {
  flagAttribute,
  SETTINGS,
  type Setting,
  type SettingName,
  type SettingValue,
} from "./flags/settings-table.js";
import type { FlagValues } from "./flags/table.js";

export type GlobalOptions = FlagValues<typeof GLOBAL_FLAGS>;

export const DEFAULT_CONCURRENCY = 4;

/** The environment variable that stands for a setting. */
export function envVariableFor(key: ConfigKey): string {
  return (SETTINGS[key] as Setting).env;
}

export type KeySource = "flag" | "env" | "store" | "sandbox";

/** The local API a run started in-process for --sandbox. */
export interface LocalSandbox {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The local API for --sandbox, handed in by the entry point: the core (this file, the context, the
 * commands but the sandbox's own) never imports src/sandbox/, and a run without --sandbox loads
 * none of it.
 */
export interface SandboxStarter {
  /** The key the sandbox takes (its demo key). */
  demoKey(): Promise<string>;
  /** Starts it in-process on 127.0.0.1, on a free port; with `liveSeconds`, its markets move. */
  start(options: { liveSeconds?: number }): Promise<LocalSandbox>;
}

/**
 * A run's settings: each from its flag, then its environment variable, then the config store, then
 * its default (all declared in flags/settings-table.ts). A flag was checked when the command line
 * was read; a value from the environment or the store is checked when it is first used, by the
 * flag's schema, under its own name (TOKENINTEL_CHAIN, config chain), so a bad stored value never
 * stops `config unset` from repairing it.
 */
export class Settings {
  private storedConfig: StoredConfig | undefined;
  private sandboxConfig: StoredConfig | undefined;

  constructor(
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv,
    /** The sandbox for --sandbox (its demo key); a run without the flag never asks for it. */
    private readonly sandbox?: SandboxStarter,
  ) {
    // The sandbox serves on an address of its own: a --base-url beside it would be ignored.
    if (globals.sandbox && globals.baseUrl !== undefined) {
      throw new UsageError(
        "--base-url and --sandbox cannot be used together: --sandbox runs against a local sandbox on an address of its own (for a sandbox you started, use --base-url alone)",
      );
    }
  }

  /** The stored settings and key, read once without loading the conf store. */
  stored(): StoredConfig {
    this.storedConfig ??= readConfig(this.env);
    return this.storedConfig;
  }

  /** The config file's path (the real store's). */
  configFile(): string {
    return configFile(this.env);
  }

  /** The raw value of a setting from the environment or the store, and where it came from. */
  raw(key: ConfigKey): { value: string; source: string } | undefined {
    const envName = envVariableFor(key);
    const fromEnv = this.env[envName];
    if (fromEnv) return { value: fromEnv, source: envName };
    const settings: unknown = this.stored().settings;
    if (settings === undefined || settings === null) return undefined;
    if (typeof settings !== "object" || Array.isArray(settings)) {
      throw new UsageError(
        `the config file ${this.configFile()}: "settings" is not an object of settings; fix it or remove it`,
      );
    }
    const value: unknown = (settings as Record<string, unknown>)[key];
    if (value === undefined || value === null) return undefined;
    // A value that is not text (a hand-edited file) is checked like any other, so that a command
    // using it fails naming it, instead of going on as if it were not set.
    return { value: typeof value === "string" ? value : JSON.stringify(value), source: `config ${key}` };
  }

  /**
   * A setting's value: its flag's (already checked; for a global setting, read from the global
   * flags when not given), else the environment's or the store's checked by the same schema as
   * the flag, else its default.
   */
  async get<K extends SettingName>(key: K, flagValue?: SettingValue<K>): Promise<SettingValue<K>> {
    const setting = SETTINGS[key] as Setting;
    const fromFlag =
      flagValue ??
      (setting.flag.group === "global"
        ? ((this.globals as Record<string, unknown>)[flagAttribute(key)] as
            | SettingValue<K>
            | false
            | undefined)
        : undefined);
    // A --no- spelling (--no-cache) turns the setting off: its value is the default's "off".
    if (fromFlag === false) return off(setting) as SettingValue<K>;
    if (fromFlag !== undefined) return fromFlag;
    const found = this.raw(key);
    if (!found) return setting.default as SettingValue<K>;
    const [{ parseValue }, { schemaForFlag }] = await Promise.all([
      import("./flags/values.js"),
      import("./flags/parse.js"),
    ]);
    return parseValue(
      found.source,
      schemaForFlag(setting.flag),
      found.value,
      !setting.secret,
    ) as SettingValue<K>;
  }

  baseUrl(): Promise<string> {
    return this.get("base-url");
  }

  /** Where the base URL comes from: its flag, its variable, the config file, or the default. */
  baseUrlSource(): string {
    if (this.globals.baseUrl !== undefined) return "--base-url";
    const found = this.raw("base-url");
    return found ? found.source : "the default";
  }

  timeoutMs(): Promise<number> {
    return this.get("timeout");
  }

  retries(): Promise<number> {
    return this.get("retries");
  }

  /** How long a cached answer stands (--cache, TOKENINTEL_CACHE, config cache); 0: no cache. */
  cacheTtlMs(): Promise<number> {
    return this.get("cache");
  }

  get concurrency(): number {
    return this.globals.concurrency ?? DEFAULT_CONCURRENCY;
  }

  /**
   * The sandbox profile: a config store of its own (`<config folder>/sandbox/`), so that trying
   * `auth login` against the sandbox never writes the real store.
   */
  sandboxStored(): StoredConfig {
    this.sandboxConfig ??= readConfig(sandboxProfileEnv(this.env));
    return this.sandboxConfig;
  }

  /** The sandbox's demo key, the one key it takes. */
  sandboxKey(): Promise<string> {
    if (!this.sandbox) throw new Error("--sandbox: this run was given no sandbox to start");
    return this.sandbox.demoKey();
  }

  /**
   * The API key and where it comes from: the flag; with --sandbox, the sandbox profile's key, else
   * the sandbox's demo key (never the real one); else the environment, then the store.
   */
  async apiKey(): Promise<{ key: string; source: KeySource } | undefined> {
    if (this.globals.apiKey) return { key: this.globals.apiKey, source: "flag" };
    if (this.globals.sandbox) {
      const profileKey = this.sandboxStored().apiKey;
      if (typeof profileKey === "string" && profileKey) return { key: profileKey, source: "store" };
      return { key: await this.sandboxKey(), source: "sandbox" };
    }
    const fromEnv = this.env.TOKENINTEL_API_KEY;
    if (fromEnv) return { key: fromEnv, source: "env" };
    const stored: unknown = this.stored().apiKey;
    if (stored !== undefined && stored !== null && typeof stored !== "string") {
      // A hand edit that left something other than text: named, never taken for "not logged in".
      throw new UsageError(
        `the config file ${this.configFile()}: "apiKey" is not text; replace it with 'tokenintel auth login' or remove it with 'tokenintel auth logout'`,
      );
    }
    return stored ? { key: stored, source: "store" } : undefined;
  }
}

/** What a setting's --no- spelling stands for: 0 for a time to live (off). */
function off(setting: Setting): unknown {
  return setting.flag.kind === "ttl" || setting.flag.kind === "duration" ? 0 : undefined;
}

/** The environment under which the config store is the sandbox profile's. */
export function sandboxProfileEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, TOKENINTEL_CONFIG_DIR: sandboxProfileDir(env) };
}

/** The sandbox profile's folder: `sandbox` inside the config folder. */
export function sandboxProfileDir(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), "sandbox");
}
