import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type Fault, FaultPlan } from "./faults.js";
import { send } from "./http.js";
import type { SandboxOptions } from "./options.js";
import type { Answer } from "./serve.js";

// What the sandbox adds around serving for the tests: counts of what it sees (read, and reset, at
// /_sandbox/stats), a throttle past the in-flight limit, added latency, and the seeded faults.

export interface SandboxStats {
  requests: number;
  connections: number;
  inFlight: number;
  maxInFlight: number;
  /** Requests by the path asked for: a client's text, so a map without a prototype. */
  byPath: Record<string, number>;
  byStatus: Record<string, number>;
  /** x402 payments verified (and settled on the simulated chain) or refused. */
  payments: { accepted: number; refused: number };
}

const TOO_MANY = { success: false, message: "Too many requests" };
const GATEWAY_PAGE =
  "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>";

/** The faults answered in place of serving; "truncate" cuts the served answer instead. */
type Injected = (req: IncomingMessage, res: ServerResponse, options: SandboxOptions) => void;
const INJECTED: Partial<Record<NonNullable<Fault>, Injected>> = {
  reset: (req) => req.socket.destroy(),
  hang: () => {},
  throttle: (_req, res, options) =>
    send(res, options.throttleStatus ?? 429, TOO_MANY, { "retry-after": "0" }),
  fail: (_req, res) => send(res, 502, { success: false, message: "Bad gateway" }),
  html: (_req, res) => {
    res.writeHead(502, { "content-type": "text/html" });
    res.end(GATEWAY_PAGE);
  },
};

export class Instruments {
  readonly stats: SandboxStats;
  private readonly faults: FaultPlan;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly options: SandboxOptions,
    payments: SandboxStats["payments"],
  ) {
    this.faults = new FaultPlan(options);
    this.stats = {
      requests: 0,
      connections: 0,
      inFlight: 0,
      maxInFlight: 0,
      byPath: Object.create(null),
      byStatus: {},
      payments,
    };
  }

  /** Counts the server's connections and keeps their sockets, for closeSockets(). */
  watch(server: Server): void {
    server.on("connection", (socket) => {
      this.stats.connections++;
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  closeSockets(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Counts a request: in flight until its response closes, and its status once written. */
  count(res: ServerResponse): void {
    const stats = this.stats;
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
  }

  /** Counts the path and answers what comes before serving (the stats page, the throttle); true if it did. */
  answersFirst(url: URL, res: ServerResponse): boolean {
    const stats = this.stats;
    const path = url.pathname;
    stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
    if (path === "/_sandbox/stats") {
      if (url.searchParams.has("reset")) this.resetStats();
      send(res, 200, stats);
      return true;
    }
    if (this.options.maxInFlight && stats.inFlight > this.options.maxInFlight) {
      send(res, this.options.throttleStatus ?? 429, TOO_MANY, { "retry-after-ms": "50" });
      return true;
    }
    return false;
  }

  private resetStats(): void {
    const { inFlight } = this.stats;
    Object.assign(this.stats, {
      requests: 0,
      connections: 0,
      maxInFlight: inFlight,
      byPath: Object.create(null),
      byStatus: {},
    });
  }

  /**
   * The rest of the configured latency of a request that came at `arrived` (performance.now()): an
   * answer leaves that long after its request came, as over a network, the sandbox's own work
   * inside it. (Added after the work, four requests of a round waited for each other's work too,
   * in one thread, where a service works on them side by side.)
   */
  async latency(arrived: number): Promise<void> {
    const left = (this.options.latencyMs ?? 0) - (performance.now() - arrived);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }

  /** The request's fault and randomness, seeded by the request without its key. */
  faultFor(req: IncomingMessage, url: URL, body: string): { fault: Fault; random: () => number } {
    const query = url.search.replace(/api_key=[^&]*/, "");
    const requestKey = `${req.method} ${url.pathname}?${query}${body.replace(/"api_key":"[^"]*"/, "")}`;
    return this.faults.pick(requestKey);
  }

  /** Whether the fault takes the place of serving. */
  injects(fault: NonNullable<Fault>): boolean {
    return Object.hasOwn(INJECTED, fault);
  }

  /** Answers a fault that takes the place of serving. */
  answerInstead(fault: NonNullable<Fault>, req: IncomingMessage, res: ServerResponse): void {
    INJECTED[fault]!(req, res, this.options);
  }

  /** A truncate fault on a 200: its declared length, half of its body, then the connection ends. */
  truncates(fault: Fault, answer: Answer, req: IncomingMessage, res: ServerResponse): boolean {
    if (fault !== "truncate" || answer.status !== 200) return false;
    const text = JSON.stringify(answer.body);
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
    });
    res.write(text.slice(0, Math.floor(text.length / 2)));
    setImmediate(() => req.socket.destroy());
    return true;
  }
}
