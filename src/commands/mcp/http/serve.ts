import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from "@modelcontextprotocol/server";
import { Context } from "../../../context.js";
import { CliError, UsageError } from "../../../errors.js";
import type { PaymentRaw } from "../call.js";
import type { LoadedTool } from "../catalog.js";
import { tokensFile } from "../tokens/store.js";
import { type CallRecord, ToolSet } from "../toolset.js";
import {
  allowedHostNames,
  isLoopbackAddress,
  isWildcardAddress,
  type Listen,
  resolveHost,
  serverUrl,
} from "./address.js";
import { plainResponse, sendResponse, webRequest } from "./bridge.js";
import { type Admitted, admit, type GateOptions, principalOf } from "./gate.js";
import { logLine } from "./log.js";
import { Principals } from "./principals.js";
import { TokenRate } from "./rate.js";
import { Sessions } from "./sessions.js";

// `tokenintel mcp --http`: the same tools (toolset.ts) over Streamable HTTP at /mcp, through the
// SDK's handlers: a 2026-07-28 request by createMcpHandler, a 2025-era one in its session
// (sessions.ts). Every request to /mcp passes the gate first (gate.ts: Host, Origin, bearer token,
// the token's rate); GET /healthz answers 200 to anyone and says nothing else. The server's calls
// run under a life of their own: SIGTERM stops the listening, lets the calls in flight finish for
// the grace, then stops them (they answer "stopped", and sign nothing more), and the run ends 0.

export interface HttpOptions {
  listen: Listen;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  maxSessions: number;
  sessionIdleMs: number;
  /** Requests a minute per token. */
  tokenRate: number;
  stopGraceMs: number;
}

/** The largest request body read: a tool call's arguments are far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The most requests to /mcp in flight at once (streams of sessions included); more are told 503. */
export const MAX_EXCHANGES = 512;
/** How long stopped calls get to answer before the connections close. */
const ANSWER_WAIT_MS = 2_000;

async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Serves until the run is stopped (SIGTERM, SIGINT); refuses to start where no one could get in. */
export async function serveHttp(
  ctx: Context,
  payment: PaymentRaw,
  catalogue: readonly LoadedTool[],
  options: HttpOptions,
): Promise<void> {
  const principals = new Principals(tokensFile(ctx.io.env), ctx.io);
  try {
    if (principals.problem) throw new CliError(principals.problem);
    const address = await resolveHost(options.listen.host);
    if (!isLoopbackAddress(address) && principals.count === 0)
      throw new UsageError(
        `--http ${options.listen.host}: listening beyond this machine needs a token first: make one with 'tokenintel mcp tokens add NAME'`,
      );
    if (isWildcardAddress(address) && !options.allowedHosts.length)
      ctx.io.warn(
        `--http ${options.listen.host}: only Host names of this machine are answered (localhost); name the others clients use with --allowed-hosts`,
      );
    if (principals.count === 0)
      ctx.io.warn(
        "no token yet: every request is refused until one is made with 'tokenintel mcp tokens add NAME'",
      );
    await new HttpMcp(ctx, payment, catalogue, options, principals, address).run();
  } finally {
    principals.close();
  }
}

class HttpMcp {
  private readonly life = new AbortController();
  private readonly serving: Context;
  private readonly tools: ToolSet;
  private readonly modern: McpHttpHandler;
  private readonly sessions: Sessions;
  private readonly gate: GateOptions;
  private readonly http: Server;
  /** Requests to /mcp in flight, and those of them that carry a message (POST). */
  private exchanges = 0;
  private posts = 0;
  private stopping = false;

  constructor(
    private readonly ctx: Context,
    payment: PaymentRaw,
    catalogue: readonly LoadedTool[],
    private readonly options: HttpOptions,
    principals: Principals,
    private readonly address: string,
  ) {
    this.serving = new Context(ctx.io, ctx.globals, this.life.signal, ctx.args, () => ctx.program());
    const onCall = (record: CallRecord) => logLine(ctx.io, record);
    this.tools = new ToolSet(this.serving, payment, catalogue, onCall);
    const onerror = (error: Error) => {
      if (ctx.globals.verbose) ctx.io.info(`tokenintel mcp: ${error.message}`);
    };
    const make = (principal: Parameters<ToolSet["server"]>[0]) => this.tools.server(principal);
    this.modern = createMcpHandler((requestContext) => make(principalOf(requestContext.authInfo)), {
      legacy: "reject",
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror,
    });
    this.sessions = new Sessions(
      make,
      { max: options.maxSessions, idleMs: options.sessionIdleMs, maxBodyBytes: MAX_BODY_BYTES },
      onerror,
    );
    this.gate = {
      hosts: allowedHostNames(options.listen, address, options.allowedHosts),
      origins: [...options.allowedOrigins],
      principals,
      rate: new TokenRate(options.tokenRate),
    };
    this.http = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => {
        onerror(error as Error);
        logLine(ctx.io, { status: 500 });
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
    // Slow clients are bounded: headers within 10 s, a whole request within 30 s.
    this.http.headersTimeout = 10_000;
    this.http.requestTimeout = 30_000;
    this.http.maxHeadersCount = 100;
  }

  async run(): Promise<void> {
    const { port, host } = this.options.listen;
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", (error: NodeJS.ErrnoException) =>
        reject(new CliError(`--http: cannot listen on ${host}:${port}: ${error.code ?? error.message}`)),
      );
      this.http.listen({ port, host: this.address }, resolve);
    });
    const bound = this.http.address();
    this.ctx.io.err(
      `listening ${serverUrl(this.address, typeof bound === "object" && bound ? bound.port : port)}`,
    );
    await new Promise<void>((resolve) => {
      if (this.ctx.signal.aborted) resolve();
      else this.ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await this.stop();
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").replace(/\?.*$/, "");
    if (path === "/healthz") {
      const ok = req.method === "GET" || req.method === "HEAD";
      res.writeHead(this.stopping ? 503 : ok ? 200 : 405, { "content-type": "text/plain" });
      res.end(this.stopping ? "stopping\n" : ok ? "ok\n" : "");
      return;
    }
    if (path !== "/mcp") return sendResponse(res, plainResponse(404, { error: "not found" }));
    if (this.stopping)
      return sendResponse(
        res,
        plainResponse(503, { error: "the server is stopping" }, { connection: "close" }),
      );
    await this.answer(req, res);
  }

  /** A request to /mcp: through the gate, its body read (bounded), then to the SDK's handler. */
  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const admitted = await admit(req, this.gate);
    if ("refused" in admitted) {
      logLine(this.ctx.io, { token: admitted.token, status: admitted.refused.status });
      return sendResponse(res, admitted.refused);
    }
    if (this.exchanges >= MAX_EXCHANGES)
      return sendResponse(res, plainResponse(503, { error: "too many requests in flight; try again" }));
    const gone = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) gone.abort(new Error("the client went away"));
    });
    const post = req.method === "POST";
    this.exchanges++;
    if (post) this.posts++;
    try {
      const read = await webRequest(
        req,
        `http://${req.headers.host ?? "localhost"}`,
        gone.signal,
        MAX_BODY_BYTES,
      );
      if (read === "too large") {
        logLine(this.ctx.io, { token: admitted.principal.name, status: 413 });
        const refusal = plainResponse(413, { error: `a request body is at most ${MAX_BODY_BYTES} bytes` });
        return await sendResponse(
          res,
          new Response(refusal.body, { status: 413, headers: { connection: "close" } }),
        );
      }
      await sendResponse(res, await this.dispatch(read.request, read.text, admitted));
    } finally {
      this.exchanges--;
      if (post) this.posts--;
    }
  }

  /** The SDK's handler for the request's revision: 2026-07-28 per request, 2025 in its session. */
  private async dispatch(
    request: Request,
    text: string | undefined,
    { authInfo }: Admitted,
  ): Promise<Response> {
    let parsedBody: unknown;
    try {
      parsedBody = text === undefined ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: the SDK answers it as JSON-RPC says.
    }
    const legacy = await isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_BODY_BYTES });
    return legacy
      ? this.sessions.handle(request, authInfo, parsedBody)
      : this.modern.fetch(request, { authInfo, ...(parsedBody !== undefined ? { parsedBody } : {}) });
  }

  /** Stops listening, lets the calls in flight finish for the grace, stops the rest, closes. */
  private async stop(): Promise<void> {
    this.stopping = true;
    this.http.close();
    this.http.closeIdleConnections();
    await until(() => this.posts === 0, this.options.stopGraceMs);
    await this.tools.end("the server stopped");
    await until(() => this.posts === 0, ANSWER_WAIT_MS);
    await this.sessions.closeAll();
    await this.modern.close();
    this.life.abort(new Error("the server stopped"));
    this.http.closeAllConnections();
    await this.tools.close();
    await this.serving.close();
  }
}
