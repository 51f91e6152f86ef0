import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { MAX_SELECTOR_ITEMS } from "../api/records.js";
import {
  type DataOptions,
  SANDBOX_API_KEY,
  SANDBOX_ECOSYSTEM,
  type SandboxChain,
  SandboxData,
  type TokenBase,
} from "./data.js";
import { type FaultOptions, FaultPlan } from "./faults.js";

export type DirectoryStyle = "envelope" | "bare" | "paginated";
export type X402Version = 1 | 2;

export interface SandboxOptions extends DataOptions, FaultOptions {
  port?: number;
  host?: string;
  /** How the directory answers: `{success, data}` (the spec), a bare array, or with meta.pagination. */
  directoryStyle?: DirectoryStyle;
  x402Version?: X402Version;
  /** Price per directory request without a key, in USDC atomic units (6 decimals). */
  priceAtomic?: string;
  /** The one key the sandbox accepts (default: the demo key). */
  apiKey?: string;
  /** Where payments go: USDC on Base (default) or Base Sepolia. */
  x402Network?: "base" | "base-sepolia";
  /** Names another EIP-712 domain in the requirements (to test that clients refuse it). */
  x402DomainName?: string;
  /** A quota on concurrent requests: beyond it, answer the throttle status (as a busy gateway does). */
  maxInFlight?: number;
}

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

export const PAGE_SIZES = { market: 30, directory: 100, agents: 30, ta: 30 } as const;
const CHAINS = new Set(["base", "solana"]);
/** Where the sandbox asks to be paid: USDC on Base or on Base Sepolia, with its EIP-712 domain. */
const X402_NETWORKS = {
  base: {
    v1: "base",
    caip2: "eip155:8453",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    domain: { name: "USD Coin", version: "2" },
  },
  "base-sepolia": {
    v1: "base-sepolia",
    caip2: "eip155:84532",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    domain: { name: "USDC", version: "2" },
  },
} as const;
const PAY_TO = `0x${"5a1db0".padEnd(36, "0")}beef`;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Parses a raw query string; list parameters are split on literal commas before decoding. */
export function parseQuery(search: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    out.set(name, eq < 0 ? "" : part.slice(eq + 1));
  }
  return out;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new HttpError(400, "malformed percent-encoding in the query string");
  }
}

function rawList(query: Map<string, string>, name: string): string[] | undefined {
  const raw = query.get(name);
  if (raw === undefined) return undefined;
  const items = raw.split(",").map(decode).filter(Boolean);
  if (items.length > MAX_SELECTOR_ITEMS) {
    throw new HttpError(400, `${name} accepts at most ${MAX_SELECTOR_ITEMS} items (got ${items.length})`);
  }
  return items;
}

function param(query: Map<string, string>, name: string): string | undefined {
  const raw = query.get(name);
  return raw === undefined ? undefined : decode(raw);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const data = new SandboxData(options);
  const faults = new FaultPlan(options);
  const stats: SandboxStats = {
    requests: 0,
    connections: 0,
    inFlight: 0,
    maxInFlight: 0,
    byPath: {},
    byStatus: {},
    payments: { accepted: 0, refused: 0 },
  };
  const sockets = new Set<Socket>();
  const host = options.host ?? "127.0.0.1";
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;

  const server: Server = createServer((req, res) => {
    stats.requests++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    let counted = true;
    const done = () => {
      if (counted) {
        counted = false;
        stats.inFlight--;
      }
    };
    res.on("close", done);
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
      return send(
        res,
        options.throttleStatus ?? 429,
        { success: false, message: "Too many requests" },
        { "retry-after-ms": "50" },
      );
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
        return send(
          res,
          options.throttleStatus ?? 429,
          { success: false, message: "Too many requests" },
          { "retry-after": "0" },
        );
      case "fail":
        return send(res, 502, { success: false, message: "Bad gateway" });
      case "html":
        res.writeHead(502, { "content-type": "text/html" });
        res.end(
          "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
        );
        return;
      default:
        break;
    }

    let status = 200;
    let payload: unknown;
    let headers: Record<string, string> = {};
    try {
      let paid = false;
      let settlement: [string, string] | undefined;
      if (/^\/v1\/crypto-metainfo\/?$/.test(path) && !url.searchParams.has("api_key")) {
        const taken = await takePayment(req, url);
        if (taken.refused) {
          const r = taken.refused;
          return send(res, r.status ?? 402, r.body, r.headers);
        }
        paid = taken.header !== undefined;
        settlement = taken.header;
      }
      const result = route(req, url, body, random, paid);
      if (settlement) result.headers = { ...result.headers, [settlement[0]]: settlement[1] };
      if (result.redirect) {
        res.writeHead(301, { location: result.redirect, "content-length": "0" });
        res.end();
        return;
      }
      payload = result.body;
      status = result.status ?? 200;
      headers = result.headers ?? {};
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

  interface RouteResult {
    status?: number;
    body?: unknown;
    headers?: Record<string, string>;
    redirect?: string;
  }

  function requireKey(key: string | undefined): void {
    if (!key) throw new HttpError(401, "api_key is required");
    if (key !== apiKey) throw new HttpError(401, "Invalid API key");
  }

  function chainOf(query: Map<string, string>, required: boolean): SandboxChain | undefined {
    const chain = param(query, "chain");
    if (chain === undefined) {
      if (required) throw new HttpError(400, "chain is required (base or solana)");
      return undefined;
    }
    if (!CHAINS.has(chain)) throw new HttpError(400, `unsupported chain '${chain}' (base or solana)`);
    return chain as SandboxChain;
  }

  function ecosystemOf(query: Map<string, string>): string | undefined {
    const ecosystem = param(query, "ecosystem");
    if (ecosystem !== undefined && ecosystem !== SANDBOX_ECOSYSTEM) {
      throw new HttpError(400, `unsupported ecosystem '${ecosystem}' (supported: ${SANDBOX_ECOSYSTEM})`);
    }
    return ecosystem;
  }

  function pageOf(query: Map<string, string>): number {
    const raw = param(query, "page");
    if (raw === undefined) return 1;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new HttpError(400, "page must be a positive integer");
    return Number(raw);
  }

  /** One page of a list, with a repeated record from the page before now and then (live-notes). */
  function paged<T>(list: T[], page: number, size: number, random: () => number) {
    const items = list.slice((page - 1) * size, page * size);
    if (
      page > 1 &&
      options.duplicateRate &&
      random() < options.duplicateRate &&
      list[(page - 1) * size - 1]
    ) {
      items.unshift(list[(page - 1) * size - 1]!);
    }
    return {
      items,
      pagination: { page, pageSize: size, pageCount: Math.ceil(list.length / size), total: list.length },
    };
  }

  function selectTokens(query: Map<string, string>, chain: SandboxChain | undefined, tickerParam: string) {
    const tickers = rawList(query, tickerParam);
    const addresses = rawList(query, "token_addresses");
    const ids = rawList(query, "token_ids");
    const ecosystem = ecosystemOf(query);
    let tokens = data.list(chain, ecosystem);
    if (tickers) tokens = data.findBySymbols(chain, tickers);
    else if (addresses) tokens = data.findByAddresses(chain, addresses);
    else if (ids) tokens = data.findByIds(chain, ids);
    if (ecosystem && (tickers || addresses || ids)) tokens = tokens.filter((t) => t.ecosystem === ecosystem);
    return tokens;
  }

  function route(
    req: IncomingMessage,
    url: URL,
    body: string,
    random: () => number,
    paid: boolean,
  ): RouteResult {
    const query = parseQuery(url.search);
    const path = url.pathname;
    const method = req.method ?? "GET";
    const get = (handler: () => RouteResult): RouteResult => {
      if (method !== "GET") throw new HttpError(405, `${method} is not allowed on ${path}`);
      return handler();
    };
    /** A keyed, paged listing of records: market, agents and TA answer alike. */
    const listing = (o: {
      chainRequired: boolean;
      tickers: string;
      pageSize: number;
      record: (t: TokenBase) => unknown;
      only?: (t: TokenBase) => boolean;
    }) =>
      get(() => {
        requireKey(param(query, "api_key"));
        const tokens = selectTokens(query, chainOf(query, o.chainRequired), o.tickers).filter(
          o.only ?? (() => true),
        );
        const page = paged(tokens, pageOf(query), o.pageSize, random);
        return {
          body: { success: true, data: page.items.map(o.record), meta: { pagination: page.pagination } },
        };
      });
    switch (path) {
      case "/v1/crypto-market":
        return { redirect: `/v1/crypto-market/${url.search}` };
      case "/v1/crypto-market/":
        return listing({
          chainRequired: true,
          tickers: "token_tickers",
          pageSize: PAGE_SIZES.market,
          record: (t) => data.marketRecord(t),
        });
      case "/v1/crypto-metainfo":
      case "/v1/crypto-metainfo/":
        return get(() => {
          const key = param(query, "api_key");
          if (key === undefined && !paid) return paymentRequired(url);
          if (key !== undefined) requireKey(key);
          const chain = chainOf(query, true);
          const page = paged(
            selectTokens(query, chain, "token_tickers"),
            pageOf(query),
            PAGE_SIZES.directory,
            random,
          );
          const records = page.items.map((t) => data.directoryRecord(t));
          const style = options.directoryStyle ?? "envelope";
          if (style === "bare") return { body: records };
          if (style === "paginated")
            return { body: { success: true, data: records, meta: { pagination: page.pagination } } };
          return { body: { success: true, data: records } };
        });
      case "/v1/agents":
      case "/v1/agents/":
        return listing({
          chainRequired: true,
          tickers: "agent_tickers",
          pageSize: PAGE_SIZES.agents,
          record: (t) => data.agentRecord(t),
          only: (t) => t.ecosystem === SANDBOX_ECOSYSTEM,
        });
      case "/v1/token-ta":
      case "/v1/token-ta/":
        return listing({
          chainRequired: false,
          tickers: "token_tickers",
          pageSize: PAGE_SIZES.ta,
          record: (t) => data.taRecord(t),
        });
      case "/v1/trending":
        return get(() => {
          requireKey(param(query, "api_key"));
          const chain = chainOf(query, false);
          const tokens = data.list(chain, undefined).slice(0, 200);
          const page = paged(tokens, pageOf(query), 20, random);
          return {
            body: {
              success: true,
              data: page.items.map((t, i) => ({
                rank: (page.pagination.page - 1) * 20 + i + 1,
                id: t.id,
                symbol: t.symbol,
                chain: t.chain,
                trend_score: (1000 - t.index).toString(),
              })),
              meta: { pagination: page.pagination },
            },
          };
        });
      case "/v1/ask-loky":
        if (method !== "POST") throw new HttpError(405, "use POST with a JSON body");
        return ask(body);
      default:
        throw new HttpError(404, `no such endpoint: ${path}`);
    }
  }

  function ask(text: string): RouteResult {
    let parsed: { api_key?: unknown; chain?: unknown; question?: unknown };
    try {
      parsed = JSON.parse(text || "{}");
    } catch {
      throw new HttpError(400, "the body must be JSON");
    }
    requireKey(typeof parsed.api_key === "string" ? parsed.api_key : undefined);
    if (typeof parsed.question !== "string" || !parsed.question.trim())
      throw new HttpError(400, "question is required");
    let chain: SandboxChain | undefined;
    if (parsed.chain !== undefined) {
      if (typeof parsed.chain !== "string" || !CHAINS.has(parsed.chain))
        throw new HttpError(400, "unsupported chain (base or solana)");
      chain = parsed.chain as SandboxChain;
    }
    const words = parsed.question
      .split(/[\s,.;:!?()]+/)
      .map((w) => w.replace(/^\$/, ""))
      .filter(Boolean);
    const tokens = data.findBySymbols(chain, words).slice(0, 5);
    const details = tokens.map((t) => data.askDetail(t));
    const lines = details.length
      ? [
          "## Sandbox answer",
          "",
          `You asked: *${parsed.question.trim()}*`,
          "",
          ...details.map(
            (d) =>
              `- **${d.token_ticker}** (${d.token_name}) on ${d.chain}: price $${d.current_usd_price}, ${d.last_24_hrs_price_change_percentage}% in 24h, market cap $${d.market_cap}`,
          ),
          "",
          "Data from the [tokenintel sandbox](https://github.com/) — synthetic, not financial advice.",
        ]
      : [
          "## Sandbox answer",
          "",
          "I found no token named in your question. Try naming a ticker, for example `$" +
            data.token("base", 0)!.symbol +
            "`.",
        ];
    return {
      body: {
        success: true,
        data: {
          questionId: randomBytes(12).toString("hex"),
          answerId: randomBytes(12).toString("hex"),
          nlpResponse: lines.join("\n"),
          tokenDetails: details.length ? details : null,
        },
      },
    };
  }

  const x402 = X402_NETWORKS[options.x402Network ?? "base"];
  const x402Version = options.x402Version ?? 1;

  /** The one way to pay the sandbox's directory: USDC, `exact`, in the configured version. */
  function requirement(url: URL): Record<string, unknown> {
    const amount = options.priceAtomic ?? "5000";
    const common = {
      scheme: "exact",
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
      asset: x402.asset,
      extra: { name: options.x402DomainName ?? x402.domain.name, version: x402.domain.version },
    };
    if (x402Version === 2) return { ...common, network: x402.caip2, amount };
    return {
      ...common,
      network: x402.v1,
      maxAmountRequired: amount,
      resource: `http://${host}:${port}${url.pathname}`,
      description: "Token directory page",
      mimeType: "application/json",
    };
  }

  function paymentRequired(url: URL, error?: string): RouteResult {
    if (x402Version === 2) {
      const required = {
        x402Version: 2,
        error: error ?? "payment required",
        resource: {
          url: `http://${host}:${port}${url.pathname}`,
          description: "Token directory page",
          mimeType: "application/json",
        },
        accepts: [requirement(url)],
      };
      return {
        status: 402,
        body: {},
        headers: { "payment-required": Buffer.from(JSON.stringify(required)).toString("base64") },
      };
    }
    return {
      status: 402,
      body: { x402Version: 1, error: error ?? "X-PAYMENT header is required", accepts: [requirement(url)] },
    };
  }

  let chain: import("./facilitator.js").SimulatedChain | undefined;
  /** Verifies and settles the payment a keyless directory request carries, if it carries one. */
  async function takePayment(
    req: IncomingMessage,
    url: URL,
  ): Promise<{ refused?: RouteResult; header?: [string, string] }> {
    const header = req.headers[x402Version === 2 ? "payment-signature" : "x-payment"];
    if (typeof header !== "string") return {};
    const { SimulatedChain, verifyAndSettle } = await import("./facilitator.js");
    chain ??= new SimulatedChain({ address: x402.asset, ...x402.domain });
    const outcome = await verifyAndSettle(
      chain,
      x402Version,
      header,
      requirement(url),
      x402Version === 2 ? x402.caip2 : x402.v1,
    );
    if (!outcome.ok) {
      stats.payments.refused++;
      return { refused: paymentRequired(url, outcome.reason) };
    }
    stats.payments.accepted++;
    return { header: outcome.responseHeader };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4020, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 4020);

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    apiKey,
    data,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) {
        reject(new HttpError(413, "body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
