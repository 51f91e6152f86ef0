import { statSync } from "node:fs";
import type Conf from "conf";
import { UsageError } from "../errors.js";
import { describeFsError } from "../files/errors.js";
import { withFileLock } from "../files/lock.js";
import type { ConfigKey } from "./keys.js";
import {
  asConfigError,
  assertTrusted,
  CONFIG_FILE_MODE,
  configDir,
  configFile,
  ensureConfigDir,
  parseConfig,
  serializeConfig,
} from "./locations.js";

interface StoreShape {
  apiKey?: string;
  settings?: Partial<Record<ConfigKey, string>>;
}

/**
 * The conf store: a JSON file, mode 0600, in a folder of mode 0700 that is the user's own. conf,
 * used as designed, reads and writes it in the format locations.ts defines (the fast reader's) and
 * writes it atomically (a temporary file beside it, fsync, rename: conf's atomically); see
 * docs/development.md, "The config store". Every change is a read-modify-write under the file's lock:
 * conf re-reads the file on each access, so two runs at once (a logout beside `config set`s) each
 * change what the other left, and neither loses the other's change.
 */
export class ConfigStore {
  private constructor(
    private readonly conf: Conf<StoreShape>,
    private readonly file: string,
  ) {}

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ConfigStore> {
    const { default: ConfClass } = await import("conf");
    const cwd = configDir(env);
    const file = configFile(env);
    // Folders we create are 0700 (every one of them); an existing one is refused, never chmod-ed,
    // when it is not the user's own or others may write to it.
    ensureConfigDir(cwd);
    assertTrusted(cwd, "folder");
    assertTrusted(file, "file");
    let conf: Conf<StoreShape>;
    try {
      conf = new ConfClass<StoreShape>({
        projectName: "tokenintel",
        projectSuffix: "",
        configName: "config",
        cwd,
        configFileMode: CONFIG_FILE_MODE,
        serialize: serializeConfig,
        deserialize: (text) => parseConfig(text, file) as StoreShape,
      });
    } catch (error) {
      // Never quote the parser's message: it shows part of the file, and the file holds the key.
      if (error instanceof UsageError) throw error;
      if (error instanceof SyntaxError)
        throw new UsageError(`the config file ${file} is not valid JSON; fix it or remove it`);
      throw new UsageError(`cannot read the config file ${file}: ${describeFsError(error)}`);
    }
    return new ConfigStore(conf, file);
  }

  /** Runs one read-modify-write of the file under its lock; a failure is a config error (exit 2). */
  private change<T>(work: () => T): T {
    try {
      return withFileLock(this.file, work, { what: "the config file" });
    } catch (error) {
      throw asConfigError(error);
    }
  }

  get path(): string {
    return this.conf.path;
  }

  get apiKey(): string | undefined {
    return this.conf.get("apiKey") || undefined;
  }

  setApiKey(key: string): void {
    this.change(() => this.conf.set("apiKey", key));
  }

  deleteApiKey(): boolean {
    return this.change(() => {
      const had = this.conf.has("apiKey");
      this.conf.delete("apiKey");
      return had;
    });
  }

  get(key: ConfigKey): string | undefined {
    return this.conf.get("settings")?.[key];
  }

  set(key: ConfigKey, value: string): void {
    this.change(() => this.conf.set("settings", { ...this.conf.get("settings"), [key]: value }));
  }

  unset(key: ConfigKey): void {
    this.change(() => {
      const settings = { ...this.conf.get("settings") };
      delete settings[key];
      this.conf.set("settings", settings);
    });
  }

  settings(): Partial<Record<ConfigKey, string>> {
    return { ...this.conf.get("settings") };
  }

  /** The file's mode, or undefined when it does not exist yet. */
  fileMode(): number | undefined {
    try {
      return statSync(this.conf.path).mode & 0o777;
    } catch {
      return undefined;
    }
  }
}
