import { EventEmitter } from "node:events";
import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, expect } from "vitest";
import { run, start } from "../harness.js";

// `tokenintel mcp --http` in-process, through the program's own run(), and the official SDK's
// Streamable HTTP clients: the 2.x client (pinned to 2026-07-28, or in 2025's way: a session)
// and the 1.x one (a 2025 session). Every server a test starts gets SIGTERM after it and must end
// with exit 0; the tokens made here must never be in what it wrote to stderr.

export interface HttpServer {
  url: string;
  /** The origin, for /healthz and other paths. */
  origin: string;
  stderr: () => string;
  done: Promise<number>;
  signals: EventEmitter;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number>;
}

/** `tokenintel mcp tokens add NAME ...`: the token it printed. */
export async function addToken(folder: string, name: string, args: string[] = []): Promise<string> {
  const r = await run(["mcp", "tokens", "add", name, ...args], folder);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

export function useHttpMcp() {
  const servers: HttpServer[] = [];
  const tokens: string[] = [];
  const clients: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    const ended = servers.splice(0);
    const made = tokens.splice(0);
    for (const server of ended) expect(await server.stop(), server.stderr()).toBe(0);
    for (const server of ended)
      for (const token of made)
        expect(server.stderr(), "a token reached the server's stderr").not.toContain(token);
  });
  return {
    /** Makes a token and remembers it, so that the test fails if the server ever writes it. */
    async token(folder: string, name: string, args: string[] = []): Promise<string> {
      const token = await addToken(folder, name, args);
      tokens.push(token);
      return token;
    },
    /** Starts `tokenintel ...args` and waits for its "listening" line. */
    async start(folder: string, args: string[], env: Record<string, string> = {}): Promise<HttpServer> {
      const signals = new EventEmitter();
      const running = start(args, folder, { env, signals });
      let code: number | undefined;
      void running.done.then((c) => (code = c));
      const deadline = Date.now() + 15_000;
      const listening = () => /^listening (http:\/\/\S+)$/m.exec(running.stderr());
      while (!listening() && code === undefined && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      const m = listening();
      if (!m) throw new Error(`the server did not start (exit ${code}): ${running.stderr()}`);
      let stopped: Promise<number> | undefined;
      const server: HttpServer = {
        url: m[1]!,
        origin: new URL(m[1]!).origin,
        stderr: running.stderr,
        done: running.done,
        signals,
        stop: () => {
          if (!stopped) {
            signals.emit("SIGTERM");
            stopped = running.done;
          }
          return stopped;
        },
      };
      servers.push(server);
      return server;
    },
    /** A 2.x client: pinned to 2026-07-28, or in 2025's way (initialize: a session). */
    async client(url: string, token: string, era: "modern" | "legacy" = "modern"): Promise<Client> {
      const mode = era === "modern" ? { pin: "2026-07-28" } : ("legacy" as const);
      const client = new Client({ name: "http-test", version: "1" }, { versionNegotiation: { mode } });
      clients.push(client);
      const requestInit = { headers: { authorization: `Bearer ${token}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
      return client;
    },
    /** A 1.x client: a 2025 session. */
    async clientV1(url: string, token: string): Promise<{ client: ClientV1; transport: TransportV1 }> {
      const client = new ClientV1({ name: "http-test-v1", version: "1" });
      clients.push(client);
      const transport = new TransportV1(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      return { client, transport };
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with node:http, any Host header included (fetch sets its own). */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The headers of a JSON-RPC POST to /mcp, with a token. */
export const rpcHeaders = (token?: string): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

export const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** The JSON lines the server logged on stderr (its calls and refusals). */
export function logLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
