import { statSync } from "node:fs";
import { withFileLock } from "../files/lock.js";
import { writePrivateFile } from "../files/private.js";
import type { ConfigKey } from "./keys.js";
import {
  asConfigError,
  assertTrusted,
  configDir,
  configFile,
  ensureConfigDir,
  readConfig,
  type StoredConfig,
  serializeConfig,
} from "./locations.js";

/**
 * The config store: a JSON file, mode 0600, in a folder of mode 0700, in the format locations.ts
 * defines. It is read by the fast reader (readConfig, which every run uses) and written through the
 * private-file module (random temporary name, fsync, rename). Every change is a read-modify-write
 * under the file's lock, and every read reads the file as it is now, so two runs at once (a logout
 * beside `config set`s) each change what the other left, and neither loses the other's change.
 * Not conf's: docs/development.md says why.
 */
export class ConfigStore {
  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly file: string,
  ) {}

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ConfigStore> {
    const dir = configDir(env);
    // Folders we create are 0700 (every one of them); an existing one is refused, never chmod-ed,
    // when it is not the user's own or others may write to it.
    ensureConfigDir(dir);
    assertTrusted(dir, "folder");
    const store = new ConfigStore(env, configFile(env));
    store.read(); // a file that cannot be used is said now, before any work
    return store;
  }

  /** The file's value now; a file not the user's own, unreadable or not a JSON object is a config error. */
  private read(): StoredConfig {
    return readConfig(this.env);
  }

  /** One read-modify-write of the file under its lock; a failure is a config error (exit 2). */
  private change<T>(work: (value: StoredConfig) => T): T {
    try {
      return withFileLock(
        this.file,
        () => {
          const value = this.read();
          const result = work(value);
          writePrivateFile(this.file, serializeConfig(value), "the config file");
          return result;
        },
        { what: "the config file" },
      );
    } catch (error) {
      throw asConfigError(error);
    }
  }

  get path(): string {
    return this.file;
  }

  get apiKey(): string | undefined {
    return this.read().apiKey || undefined;
  }

  setApiKey(key: string): void {
    this.change((value) => {
      value.apiKey = key;
    });
  }

  deleteApiKey(): boolean {
    return this.change((value) => {
      const had = "apiKey" in value;
      delete value.apiKey;
      return had;
    });
  }

  get(key: ConfigKey): string | undefined {
    return this.read().settings?.[key];
  }

  set(key: ConfigKey, value: string): void {
    this.change((stored) => {
      stored.settings = { ...stored.settings, [key]: value };
    });
  }

  unset(key: ConfigKey): void {
    this.change((stored) => {
      const settings = { ...stored.settings };
      delete settings[key];
      stored.settings = settings;
    });
  }

  settings(): Partial<Record<ConfigKey, string>> {
    return { ...this.read().settings };
  }

  /** The file's mode, or undefined when it does not exist yet. */
  fileMode(): number | undefined {
    try {
      return statSync(this.file).mode & 0o777;
    } catch {
      return undefined;
    }
  }
}
