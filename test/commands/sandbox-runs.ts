import type { SandboxOptions } from "../../src/sandbox/server.js";
import { neverShown, useSandbox, useServers } from "../e2e/fixtures.js";
import { run } from "./harness.js";

// The setups the command files share: one sandbox started for a file's tests, and run() against it
// in the file's config folder.

type Env = Record<string, string | undefined>;

/**
 * The sandbox under a key of the file's own, which fails the test whose runs print it. `cliAt` runs a
 * command against `server` with the key, `defaults` and `env`, in `folder` (the file's config folder
 * unless given); `cli` against the file's sandbox; `requestsTo` counts the sandbox's requests to a path.
 */
export function useKeyedSandbox(name: string, options: SandboxOptions = {}, defaults: Env = {}) {
  const KEY = `sk_test_${Math.random().toString(36).slice(2)}_${name}`;
  const servers = useServers();
  const dir = { path: servers.folder() };
  const sandbox = useSandbox({ apiKey: KEY, ...options });
  neverShown(KEY);
  const cliAt = (server: { url: string }, args: string[], env: Env = {}, folder = dir.path) =>
    run(["--base-url", server.url, ...args], folder, {
      env: { TOKENINTEL_API_KEY: KEY, ...defaults, ...env },
    });
  const cli = (args: string[], env: Env = {}) => cliAt(sandbox, args, env);
  const requestsTo = (path: string) => sandbox.stats.byPath[path] ?? 0;
  return { KEY, servers, dir, sandbox, cli, cliAt, requestsTo };
}

/** The sandbox with its demo key: `at` runs a command against it with `defaults` and `env`. */
export function useDemoSandbox(defaults: Env = {}) {
  const sandbox = useSandbox();
  const dir = useServers().folder();
  const at = (args: string[], env: Env = {}) =>
    run(["--base-url", sandbox.url, "--api-key", sandbox.apiKey, ...args], dir, {
      env: { ...defaults, ...env },
    });
  return { sandbox, dir, at };
}
