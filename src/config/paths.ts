import { readFileSync } from "node:fs";
import { join } from "node:path";
import envPaths from "env-paths";
import { UsageError } from "../errors.js";

/** The folder of the config store: TOKENINTEL_CONFIG_DIR, or the platform's config folder. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOKENINTEL_CONFIG_DIR || envPaths("tokenintel", { suffix: "" }).config;
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "config.json");
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
