import { homedir } from "node:os";
import { join } from "node:path";

// tokenintel's folders where each platform keeps a program's config, cache and data, read from the
// run's environment (the binary's is the process's; a run in-process passes its own), never from
// the process behind the caller's back. The conventions are those env-paths follows: the XDG base
// directories on Linux and other Unix systems, ~/Library on macOS, %APPDATA% and %LOCALAPPDATA% on
// Windows.

export type FolderKind = "config" | "cache" | "data";

const NAME = "tokenintel";

/** The platform's folder of `kind` for tokenintel. */
export function platformFolder(
  kind: FolderKind,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = (platform === "win32" ? env.USERPROFILE : env.HOME) || homedir();
  if (platform === "darwin") {
    const library = join(home, "Library");
    const where = { config: "Preferences", cache: "Caches", data: "Application Support" }[kind];
    return join(library, where, NAME);
  }
  if (platform === "win32") {
    const roaming = env.APPDATA || join(home, "AppData", "Roaming");
    const local = env.LOCALAPPDATA || join(home, "AppData", "Local");
    if (kind === "config") return join(roaming, NAME, "Config");
    return join(local, NAME, kind === "cache" ? "Cache" : "Data");
  }
  const xdg = {
    config: env.XDG_CONFIG_HOME || join(home, ".config"),
    cache: env.XDG_CACHE_HOME || join(home, ".cache"),
    data: env.XDG_DATA_HOME || join(home, ".local", "share"),
  }[kind];
  return join(xdg, NAME);
}
