import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { SANDBOX_API_KEY, SandboxData } from "./data.js";
import { FaultPlan } from "./faults.js";
import type { SandboxContext } from "./handlers/context.js";
import { PAYABLE, ROUTES } from "./handlers/index.js";
import { HttpError, QueryReader, readBody, send } from "./http.js";
import type { SandboxOptions } from "./options.js";
import { X402Desk } from "./x402.js";

// The sandbox server: listens on loopback, counts what it sees, injects the configured faults, takes
// x402 payments for payable paths, and hands each request to its endpoint's handler (handlers/).

export type { DirectoryStyle, SandboxOptions, X402Version } from "./options.js";

export interface SandboxStats {
  requests: number;
  connections: number;
  inFlight: number;
  maxInFlight: number;
  byPath: Record<string, number>;
  byStatus: Record<string, number>;
  /** x402 payments verified (and settled on the simulated chain) or refused. */
  payments: { accepted: number; refused: number };
}

export interface SandboxServer {
  url: string;
  port: number;
  apiKey: string;
  data: SandboxData;
  stats: SandboxStats;
  close(): Promise<void>;
}

const TOO_MANY = { success: false, message: "Too many requests" };
const GATEWAY_PAGE =
  "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>";

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? "127.0.0.1";
  const origin = { url: "" };
  const desk = new X402Desk(options, () => origin.url);
  const ctx: SandboxContext = {
    data: new SandboxData(options),
    options,
    apiKey: options.apiKey ?? SANDBOX_API_KEY,
    paymentRequired: (url) => desk.paymentRequired(url),
  };
  const faults = new FaultPlan(options);
  const stats: SandboxStats = {
    requests: 0,
    connections: 0,
    inFlight: 0,
    maxInFlight: 0,
    byPath: {},
    byStatus: {},
    payments: desk.payments,
  };
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    stats.requests++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    let counted = true;
    res.on("close", () => {
      if (counted) {
        counted = false;
        stats.inFlight--;
      }
    });
    res.on("finish", () => {
      stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
    });
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        send(res, 500, { success: false, message: `sandbox error: ${(error as Error).message}` });
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    stats.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const path = url.pathname;
    stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
    if (path === "/_sandbox/stats") {
      if (url.searchParams.has("reset")) {
        Object.assign(stats, {
          requests: 0,
          connections: 0,
          maxInFlight: stats.inFlight,
          byPath: {},
          byStatus: {},
        });
      }
      return send(res, 200, stats);
    }
    if (options.maxInFlight && stats.inFlight > options.maxInFlight) {
      return send(res, options.throttleStatus ?? 429, TOO_MANY, { "retry-after-ms": "50" });
    }
    const body = req.method === "POST" ? await readBody(req) : "";
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));

    const requestKey = `${req.method} ${path}?${url.search.replace(/api_key=[^&]*/, "")}${body.replace(/"api_key":"[^"]*"/, "")}`;
    const { fault, random } = faults.pick(requestKey);
    switch (fault) {
      case "reset":
        req.socket.destroy();
        return;
      case "hang":
        return;
      case "throttle":
        return send(res, options.throttleStatus ?? 429, TOO_MANY, { "retry-after": "0" });
      case "fail":
        return send(res, 502, { success: false, message: "Bad gateway" });
      case "html":
        res.writeHead(502, { "content-type": "text/html" });
        res.end(GATEWAY_PAGE);
        return;
      default:
        break;
    }

    let status = 200;
    let payload: unknown;
    let headers: Record<string, string> = {};
    try {
      let settlement: [string, string] | undefined;
      if (PAYABLE.has(path) && !url.searchParams.has("api_key")) {
        const taken = await desk.take(req, url);
        if (taken.refused) {
          const r = taken.refused;
          return send(res, r.status ?? 402, r.body, r.headers);
        }
        settlement = taken.header;
      }
      const handler = ROUTES[path];
      if (!handler) throw new HttpError(404, `no such endpoint: ${path}`);
      const method = req.method ?? "GET";
      const query = new QueryReader(url.search);
      const result = handler({ method, path, url, query, body, random, paid: settlement !== undefined }, ctx);
      if (result.redirect) {
        res.writeHead(301, { location: result.redirect, "content-length": "0" });
        res.end();
        return;
      }
      payload = result.body;
      status = result.status ?? 200;
      headers = { ...result.headers, ...(settlement ? { [settlement[0]]: settlement[1] } : {}) };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      status = error.status;
      payload = { success: false, message: error.message };
    }
    if (fault === "truncate" && status === 200) {
      const text = JSON.stringify(payload);
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(text)),
      });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      setImmediate(() => req.socket.destroy());
      return;
    }
    send(res, status, payload, headers);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4020, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 4020);
  origin.url = `http://${host}:${port}`;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    apiKey: ctx.apiKey,
    data: ctx.data,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
