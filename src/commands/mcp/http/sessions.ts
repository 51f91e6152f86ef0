import { randomUUID } from "node:crypto";
import {
  type AuthInfo,
  isInitializeRequest,
  type LegacyHttpHandler,
  legacyStatelessFallback,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Principal } from "../toolset.js";
import { plainResponse } from "./bridge.js";
import { principalOf } from "./gate.js";

// The 2025-era clients' sessions (an initialize opens one, Mcp-Session-Id names it), each an SDK
// server over the SDK's Streamable HTTP transport, bound to the token that opened it: another
// token's request naming it finds no session. At most `max` are kept; one unused for `idleMs` is
// closed, and so is every session of a token when the token is revoked. A 2025-era request that
// names no session and is no initialize is served statelessly (the SDK's fallback).

export interface SessionLimits {
  max: number;
  idleMs: number;
  maxBodyBytes: number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  principal: Principal;
  seen: number;
  onRevoked: () => void;
}

/** How long a revoked token's sessions stay for its stopped calls to answer (none can come in). */
const REVOKED_CLOSE_MS = 2_000;

const notFound = () =>
  Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
    { status: 404 },
  );

export class Sessions {
  private readonly live = new Map<string, Session>();
  private readonly stateless: LegacyHttpHandler;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly make: (principal: Principal) => McpServer,
    private readonly limits: SessionLimits,
    private readonly onerror: (error: Error) => void,
  ) {
    this.stateless = legacyStatelessFallback((ctx) => make(principalOf(ctx.authInfo)), onerror, {
      maxRequestBodySize: limits.maxBodyBytes,
    });
    const every = Math.max(1_000, Math.min(30_000, limits.idleMs / 4));
    this.sweeper = setInterval(() => this.sweep(), every).unref();
  }

  get size(): number {
    return this.live.size;
  }

  /** Serves a 2025-era request: in its session, a new one (initialize), or statelessly. */
  async handle(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
    const principal = principalOf(authInfo);
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.live.get(id);
      if (!session || session.principal !== principal) return notFound();
      return this.serve(session, request, authInfo, parsedBody);
    }
    if (request.method === "POST" && isInitializeRequest(parsedBody))
      return this.open(request, authInfo, parsedBody);
    return this.stateless(request, { authInfo, parsedBody });
  }

  private async open(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
    if (this.live.size >= this.limits.max) this.sweep();
    if (this.live.size >= this.limits.max)
      return plainResponse(
        503,
        { error: `at most ${this.limits.max} sessions at once (--max-sessions); try again later` },
        { "retry-after": "30" },
      );
    const principal = principalOf(authInfo);
    const session: Session = {
      principal,
      server: this.make(principal),
      seen: Date.now(),
      // Its calls stop at once and answer; the session goes once they had time to.
      onRevoked: () => void setTimeout(() => void this.close(session), REVOKED_CLOSE_MS).unref(),
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void this.live.set(sid, session),
        onsessionclosed: () => void this.close(session),
        maxRequestBodySize: this.limits.maxBodyBytes,
      }),
    };
    principal.revoked.addEventListener("abort", session.onRevoked, { once: true });
    await session.server.connect(session.transport);
    const response = await this.serve(session, request, authInfo, parsedBody);
    // An initialize the transport refused opened nothing.
    if (!session.transport.sessionId) await this.close(session);
    return response;
  }

  private async serve(session: Session, request: Request, authInfo: AuthInfo, parsedBody: unknown) {
    session.seen = Date.now();
    try {
      return await session.transport.handleRequest(request, { authInfo, parsedBody });
    } finally {
      session.seen = Date.now();
    }
  }

  /** Closes the sessions unused for idleMs. */
  private sweep(): void {
    const before = Date.now() - this.limits.idleMs;
    for (const session of this.live.values()) if (session.seen < before) void this.close(session);
  }

  private async close(session: Session): Promise<void> {
    const id = session.transport.sessionId;
    if (id !== undefined && this.live.get(id) !== session) return;
    if (id !== undefined) this.live.delete(id);
    session.principal.revoked.removeEventListener("abort", session.onRevoked);
    await session.server.close().catch((error: unknown) => this.onerror(error as Error));
  }

  /** Closes every session (the server stops). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.live.values()].map((session) => this.close(session)));
  }
}
