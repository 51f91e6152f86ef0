import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { SANDBOX_API_KEY, SandboxData } from "./data.js";
import type { SandboxContext } from "./handlers/context.js";
import { readBody, send } from "./http.js";
import { Instruments, type SandboxStats } from "./instruments.js";
import type { SandboxOptions } from "./options.js";
import { serve, write } from "./serve.js";
import { X402Desk } from "./x402.js";

// The sandbox server: listens on loopback and hands each request to serving (serve.ts: x402
// payments, then the endpoint's handler in handlers/), inside what the tests add around it
// (instruments.ts: counts, the stats page, a throttle, latency, faults).

export type { SandboxStats } from "./instruments.js";
export type { DirectoryStyle, SandboxOptions, X402Version } from "./options.js";

export interface SandboxServer {
  url: string;
  port: number;
  apiKey: string;
  data: SandboxData;
  stats: SandboxStats;
  close(): Promise<void>;
}

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
  const instruments = new Instruments(options, desk.payments);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    const url = new URL(req.url ?? "/", "http://sandbox");
    if (instruments.answersFirst(url, res)) return;
    const body = req.method === "POST" ? await readBody(req) : "";
    const { fault, random } = instruments.faultFor(req, url, body);
    if (fault && instruments.injects(fault)) {
      await instruments.latency(arrived);
      instruments.answerInstead(fault, req, res);
      return;
    }
    const answer = await serve({ req, url, body, random }, ctx, desk);
    await instruments.latency(arrived);
    if (!instruments.truncates(fault, answer, req, res)) write(res, answer);
  }

  const server: Server = createServer((req, res) => {
    instruments.count(res);
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        send(res, 500, { success: false, message: `sandbox error: ${(error as Error).message}` });
    });
  });
  server.keepAliveTimeout = 30_000;
  instruments.watch(server);
  const port = await listen(server, host, options.port ?? 4020);
  origin.url = `http://${host}:${port}`;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    apiKey: ctx.apiKey,
    data: ctx.data,
    stats: instruments.stats,
    close: () =>
      new Promise<void>((resolve) => {
        instruments.closeSockets();
        server.close(() => resolve());
      }),
  };
}

/** Listens on host:port; the port the server took (port 0 picks a free one). */
async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return typeof address === "object" && address ? address.port : port;
}
