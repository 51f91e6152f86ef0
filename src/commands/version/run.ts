import { cacheDir, configFile, dataDir } from "../../config/locations.js";

/** `version --verbose`: one `key: value` a line, to paste into a bug report. */
export function versionReport(
  version: string,
  env: NodeJS.ProcessEnv,
  runtime: Pick<NodeJS.Process, "version" | "platform" | "arch"> = process,
): string {
  const facts: Array<[string, string]> = [
    ["version", version],
    ["node", runtime.version],
    ["platform", runtime.platform],
    ["arch", runtime.arch],
    ["config", configFile(env)],
    ["cache", cacheDir(env)],
    ["data", dataDir(env)],
  ];
  return facts.map(([key, value]) => `${key}: ${value}\n`).join("");
}
