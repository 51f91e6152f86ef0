import { chmodSync, statSync } from "node:fs";
import type Conf from "conf";
import { UsageError } from "../errors.js";
import type { ConfigKey } from "./keys.js";
import { assertTrusted, CONFIG_FILE_MODE, configDir, configFile, ensureConfigDir } from "./paths.js";

interface StoreShape {
  apiKey?: string;
  settings?: Partial<Record<ConfigKey, string>>;
}

/** The conf store: a JSON file, mode 0600, in a folder of mode 0700. */
export class ConfigStore {
  private constructor(private readonly conf: Conf<StoreShape>) {}

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
      });
    } catch (error) {
      // Never quote the parser's message: it shows part of the file, and the file holds the key.
      if (error instanceof SyntaxError)
        throw new UsageError(`the config file ${file} is not valid JSON; fix it or remove it`);
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read the config file ${file}${code ? `: ${code}` : ""}`);
    }
    return new ConfigStore(conf);
  }

  get path(): string {
    return this.conf.path;
  }

  get apiKey(): string | undefined {
    return this.conf.get("apiKey") || undefined;
  }

  setApiKey(key: string): void {
    this.conf.set("apiKey", key);
    this.tighten();
  }

  deleteApiKey(): boolean {
    const had = this.conf.has("apiKey");
    this.conf.delete("apiKey");
    return had;
  }

  get(key: ConfigKey): string | undefined {
    return this.conf.get("settings")?.[key];
  }

  set(key: ConfigKey, value: string): void {
    this.conf.set("settings", { ...this.conf.get("settings"), [key]: value });
    this.tighten();
  }

  unset(key: ConfigKey): void {
    const settings = { ...this.conf.get("settings") };
    delete settings[key];
    this.conf.set("settings", settings);
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

  private tighten(): void {
    try {
      chmodSync(this.conf.path, CONFIG_FILE_MODE);
    } catch {
      // the write itself would have failed loudly
    }
  }
}
