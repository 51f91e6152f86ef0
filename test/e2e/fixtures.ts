import type { Socket } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { type SandboxOptions, type SandboxServer, startSandbox } from "../../src/sandbox/server.js";
import { tempDir, transcript } from "./helpers.js";
import { type HostileHandler, type HostileServer, hostileServer, rawServer } from "./hostile-server.js";

// Fixtures for the end-to-end tests: servers and folders that a file's tests share or start one
// each, all stopped and removed after the file; and the check that no secret reached any output,
// made after each test, so that the test that leaked is the one that fails.

/**
 * One sandbox for the tests of a file: started before them, stopped after. What it returns is the
 * sandbox itself, its fields read when a test reads them (after the start), so a file writes
 * `const sandbox = useSandbox()` and uses `sandbox.url` in its tests.
 */
export function useSandbox(options: SandboxOptions = {}): SandboxServer {
  let server: SandboxServer | undefined;
  beforeAll(async () => {
    server = await startSandbox({ port: 0, ...options });
  });
  afterAll(async () => {
    await server?.close();
  });
  const started = (): SandboxServer => {
    if (!server) throw new Error("useSandbox(): the sandbox is started before the tests, not at load");
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    get apiKey() {
      return started().apiKey;
    },
    get data() {
      return started().data;
    },
    get stats() {
      return started().stats;
    },
    close: () => started().close(),
  };
}

/**
 * Servers and folders a test starts for itself (a sandbox with its own options, a stub server that
 * misbehaves as told, a config folder): each is stopped or removed after the file's tests.
 */
export function useServers() {
  const stops: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  return {
    async sandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
      const s = await startSandbox({ port: 0, ...options });
      stops.push(() => s.close());
      return s;
    },
    async stub(handler: HostileHandler): Promise<HostileServer> {
      const s = await hostileServer(handler);
      stops.push(() => s.close());
      return s;
    },
    /** A raw TCP stub (see rawServer): for bytes an HTTP server would not send, or a port held busy. */
    async raw(onSocket: (socket: Socket) => void = () => {}): Promise<{ url: string; port: number }> {
      const s = await rawServer(onSocket);
      stops.push(() => s.close());
      return s;
    },
    folder(prefix?: string): string {
      const dir = tempDir(prefix);
      stops.push(dir.remove);
      return dir.path;
    },
  };
}

/** Fails the test whose runs printed any of `secrets` (as given; redaction of encodings is tested apart). */
export function neverShown(...secrets: Array<string | (() => string)>): void {
  let from = 0;
  beforeEach(() => {
    from = transcript.length;
  });
  afterEach(() => {
    const seen = transcript.slice(from).join("\n");
    for (const secret of secrets) {
      const text = typeof secret === "function" ? secret() : secret;
      if (text) expect(seen.includes(text), "a secret reached stdout or stderr in this test").toBe(false);
    }
  });
}
