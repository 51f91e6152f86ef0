import type { Agent, Dispatcher } from "undici";
import dispatchRequest from "undici/lib/api/api-request.js";
import AgentClass from "undici/lib/dispatcher/agent.js";
import {
  ApiError,
  AuthError,
  CliError,
  InterruptedError,
  NetworkError,
  PaymentError,
  UsageError,
} from "../errors.js";
import { JsonDepthError, parseJson, stringifyJson } from "./json.js";
import { Limiter, sleep } from "./limiter.js";
import { DEFAULT_MAX_BODY_BYTES, formatBytes, MAX_BODY_CAP_BYTES } from "./limits.js";

export type QueryValue = string | number | readonly string[] | undefined;
export type Query = ReadonlyArray<readonly [string, QueryValue]>;

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  retries: number;
  concurrency: number;
  ratePerMinute?: number;
  signal?: AbortSignal;
  /** Status and progress lines (stderr). */
  log: (line: string) => void;
  verbose: boolean;
  quiet: boolean;
  /** For tests: the randomness behind backoff jitter. */
  random?: () => number;
  /** What a 402 gets: a payment (--pay), or an error naming the price. */
  payment?: PaymentHook;
  /** The most bytes one response body may hold (--max-body); default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
}

/**
 * How payment joins the client: the client knows only that a 402 may be answered by sending the
 * request again with some headers, once; what to pay and what to say is the hook's business.
 */
export interface PaymentHook {
  /** A 402 to a request that carried no payment: the headers to send it again with; throws to refuse. */
  pay?(res: ApiResponse, label: string | undefined): Promise<Record<string, string>>;
  /** The paid request was answered with a 2xx. */
  settled?(res: ApiResponse, headers: Record<string, string>): Promise<void>;
  /** The error a 402 ends in; `paid` when the server refused a payment that was sent. */
  refusal(res: ApiResponse, paid: boolean): Promise<CliError>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The body as the server sent it. */
  text: string;
  url: string;
}

export interface RequestOptions {
  method?: "GET" | "POST";
  query?: Query;
  /** The JSON body of a POST; the key is added to it when it is an object. */
  body?: unknown;
  /** A short label for messages, e.g. "page 3". */
  label?: string;
  /** Keep a 2xx body as text without requiring JSON (`tokenintel api` prints it as sent). */
  raw?: boolean;
  /** Hand a 402 back as an answer instead of paying or failing (a dry run reads its offer). */
  returnPaymentRequired?: boolean;
}

const RETRY_STATUSES = new Set([408, 423, 425, 429, 500, 502, 503, 504]);
const THROTTLE_STATUSES = new Set([423, 429]);
const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
  "UND_ERR_CLOSED",
  "TIMEOUT",
]);
const MAX_REDIRECTS = 5;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 15_000;
/** The most one request may spend waiting between attempts. */
const RETRY_BUDGET_MS = 90_000;

/** The HTTP client every command uses: one keep-alive pool, retries, timeouts, secret hygiene. */
export class ApiClient {
  readonly baseUrl: URL;
  private readonly agent: Agent;
  readonly limiter: Limiter;
  private readonly random: () => number;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = new URL(options.baseUrl);
    if (options.apiKey) assertKeyMayTravel(this.baseUrl);
    this.agent = new AgentClass({
      connections: Math.max(1, options.concurrency),
      pipelining: 1,
      keepAliveTimeout: 10_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    });
    this.limiter = new Limiter(
      Math.max(1, options.concurrency),
      options.ratePerMinute ? 60_000 / options.ratePerMinute : 0,
    );
    this.random = options.random ?? Math.random;
  }

  get hasKey(): boolean {
    return Boolean(this.options.apiKey);
  }

  /** The client-side ceiling from --rate, if any. */
  get ratePerMinute(): number | undefined {
    return this.options.ratePerMinute;
  }

  /** Ends the run's connections, dropping requests nobody waits for (pages fetched past the end). */
  async close(): Promise<void> {
    await this.agent.destroy().catch(() => {});
  }

  /** The URL for a path and query, with the key added where it belongs. */
  buildUrl(path: string, query: Query = [], withKey = true): URL {
    const url = new URL(path.replace(/^\/+/, ""), ensureTrailingSlash(this.baseUrl));
    const parts: string[] = [];
    for (const [name, value] of query) {
      if (value === undefined) continue;
      const encoded = Array.isArray(value)
        ? value.map((item) => encodeURIComponent(item)).join(",")
        : encodeURIComponent(String(value));
      parts.push(`${encodeURIComponent(name)}=${encoded}`);
    }
    if (withKey && this.options.apiKey) parts.push(`api_key=${encodeURIComponent(this.options.apiKey)}`);
    url.search = parts.join("&");
    return url;
  }

  async request(path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const method = opts.method ?? "GET";
    let url = this.buildUrl(path, opts.query, method === "GET");
    const payload = method === "POST" ? this.postBody(opts.body ?? {}) : undefined;
    const started = Date.now();
    let attempt = 0;
    let redirects = 0;
    // A payment, once made, goes with every retry of this request, and is the only one it gets: a
    // 402 to the paid request is the server refusing it, never a reason to sign a second one.
    let paymentHeaders: Record<string, string> | undefined;
    for (;;) {
      attempt++;
      let outcome: ApiResponse | CliError;
      try {
        outcome = await this.attempt(method, url, payload, opts.raw ?? false, paymentHeaders);
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        outcome = error instanceof CliError ? error : new NetworkError(String(error));
      }
      if (!(outcome instanceof CliError)) {
        const res = outcome;
        if (res.status >= 300 && res.status < 400 && typeof res.headers.location === "string") {
          url = this.followRedirect(url, res.headers.location, ++redirects);
          attempt--;
          continue;
        }
        if (res.status >= 200 && res.status < 300) {
          this.limiter.succeeded();
          if (paymentHeaders) await this.options.payment?.settled?.(res, paymentHeaders);
          return res;
        }
        if (res.status === 402 && opts.returnPaymentRequired) return res;
        if (res.status === 402 && this.options.payment?.pay && !paymentHeaders) {
          paymentHeaders = await this.options.payment.pay(res, opts.label);
          attempt--;
          continue;
        }
        outcome =
          res.status === 402
            ? await this.paymentRequired(res, paymentHeaders !== undefined)
            : this.errorFor(res);
        outcome.response = { status: res.status, headers: res.headers, text: res.text };
        if (THROTTLE_STATUSES.has(res.status)) this.limiter.throttled();
      }
      const error = outcome;
      const retryable =
        method === "GET" ? isRetryable(error) : error instanceof NetworkError && error.notSent;
      const elapsed = Date.now() - started;
      const notes: string[] = [];
      if (!retryable || attempt > this.options.retries) {
        if (retryable && attempt > 1) notes.push(`gave up after ${attempt} attempts`);
        throw annotate(error, notes);
      }
      const delay = this.backoff(attempt, error instanceof ApiError ? error.retryAfterMs : undefined);
      if (elapsed + delay > RETRY_BUDGET_MS) {
        notes.push(`the server asks to wait ${Math.ceil(delay / 1000)} s more; gave up`);
        throw annotate(error, notes);
      }
      if (!this.options.quiet) {
        const what = opts.label ? ` (${opts.label})` : "";
        this.options.log(
          `tokenintel: ${error.message}${what}; retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${this.options.retries + 1})`,
        );
      }
      await sleep(delay, this.options.signal).catch(() => {
        throw new InterruptedError();
      });
    }
  }

  private backoff(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return Math.max(0, retryAfterMs);
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return Math.round(this.random() * ceiling);
  }

  private followRedirect(from: URL, location: string, count: number): URL {
    const next = new URL(location, from);
    if (next.origin !== from.origin) {
      throw new ApiError(
        `the server redirected to another origin (${next.origin}); not following it, so the API key stays here`,
      );
    }
    if (count > MAX_REDIRECTS) throw new ApiError(`too many redirects (more than ${MAX_REDIRECTS})`);
    // Same origin only: keep the key in the query even when the Location dropped it.
    if (from.searchParams.has("api_key") && !next.searchParams.has("api_key") && this.options.apiKey) {
      next.search = [next.search.slice(1), `api_key=${encodeURIComponent(this.options.apiKey)}`]
        .filter(Boolean)
        .join("&");
    }
    return next;
  }

  private postBody(body: unknown): string {
    const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
    if (!isObject || !this.options.apiKey) return stringifyJson(body);
    return stringifyJson({ api_key: this.options.apiKey, ...(body as object) });
  }

  private async attempt(
    method: string,
    url: URL,
    payload: string | undefined,
    raw: boolean,
    extraHeaders: Record<string, string> | undefined,
  ): Promise<ApiResponse> {
    const release = await this.limiter.acquire(this.options.signal).catch(() => {
      throw new InterruptedError();
    });
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    const t0 = performance.now();
    if (this.options.verbose) this.options.log(`> ${method} ${redactUrl(url)}`);
    try {
      const res = await dispatchRequest.call(this.agent, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        signal,
        headers: {
          accept: "application/json",
          "user-agent": "tokenintel",
          ...(payload !== undefined ? { "content-type": "application/json" } : {}),
          ...extraHeaders,
        },
        body: payload,
      });
      const text = await readBody(res, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      if (this.options.verbose) {
        this.options.log(
          `< ${res.statusCode} (${Math.round(performance.now() - t0)} ms, ${text.length} bytes)`,
        );
      }
      return {
        status: res.statusCode,
        headers: res.headers,
        body: raw && res.statusCode < 300 ? undefined : this.decodeBody(res.statusCode, res.headers, text),
        text,
        url: redactUrl(url),
      };
    } catch (error) {
      if (this.options.signal?.aborted) throw new InterruptedError();
      if (error instanceof CliError) throw error;
      throw toNetworkError(error, timeout.aborted, this.options.timeoutMs);
    } finally {
      release();
    }
  }

  /** JSON for 2xx answers (an error when it is not), best effort for the rest. */
  private decodeBody(status: number, headers: ApiResponse["headers"], text: string): unknown {
    try {
      return text.length ? parseJson(text) : undefined;
    } catch (error) {
      if (status >= 300) return text;
      if (error instanceof JsonDepthError) {
        const depth = error.maxDepth;
        throw new ApiError(`HTTP ${status}: the server sent JSON nested deeper than ${depth} levels`, {
          status,
        });
      }
      const type = String(headers["content-type"] ?? "unknown type").split(";")[0];
      const what = /^\s*</.test(text)
        ? `an HTML page (${type}) instead of JSON`
        : `invalid JSON (${(error as Error).message}, ${text.length} bytes)`;
      throw new ApiError(`HTTP ${status}: the server sent ${what}`, { status, retryable: true });
    }
  }

  /** A 402 the run does not (or no longer) pay: the hook says why, else a plain refusal. */
  private async paymentRequired(res: ApiResponse, paid: boolean): Promise<CliError> {
    if (this.options.payment) return this.options.payment.refusal(res, paid);
    return new PaymentError(
      "payment required (HTTP 402); use an API key ('tokenintel auth login') or pay per request with --pay",
    );
  }

  errorFor(res: ApiResponse): ApiError | AuthError {
    const server = serverMessage(res.body);
    const detail = `HTTP ${res.status}${server ? `: ${server}` : ""}`;
    if (res.status === 401 || res.status === 403) {
      return new AuthError(
        this.hasKey
          ? `the API key was rejected (${detail}); check it with 'tokenintel auth status'`
          : `an API key is required (${detail}); run 'tokenintel auth login' or try --sandbox`,
      );
    }
    return new ApiError(detail, {
      status: res.status,
      retryable: RETRY_STATUSES.has(res.status),
      retryAfterMs: retryAfterMs(res.headers),
    });
  }
}

/**
 * The body as text, counted as it streams: past `cap` bytes (or when Content-Length announces
 * more) the response is dropped and the attempt fails, so memory never holds more than the cap.
 * Not retryable: the same request would bring the same body.
 */
function readBody(res: Dispatcher.ResponseData, cap: number): Promise<string> {
  const raise =
    cap < MAX_BODY_CAP_BYTES
      ? `raise the cap with --max-body, e.g. --max-body ${formatBytes(Math.min(cap * 2, MAX_BODY_CAP_BYTES), true)}`
      : "--max-body allows no more";
  const tooLarge = () =>
    new ApiError(
      `HTTP ${res.statusCode}: the response is larger than ${formatBytes(cap)}, the cap on one response; stopped reading it (${raise})`,
      { status: res.statusCode },
    );
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > cap) {
    res.body.on("error", () => {}); // destroying reports an abort: expected
    res.body.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        chunks.length = 0;
        res.body.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    res.body.on("error", reject);
    res.body.on("end", () => {
      const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      // Like undici's text(): UTF-8, without a byte order mark.
      const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
      resolve(buffer.toString("utf8", bom ? 3 : 0));
    });
  });
}

function annotate<T extends CliError>(error: T, notes: string[]): T {
  if (notes.length) error.message += ` (${notes.join("; ")})`;
  return error;
}

function isRetryable(error: CliError): boolean {
  if (error instanceof NetworkError) return error.code !== undefined && RETRYABLE_CODES.has(error.code);
  if (error instanceof ApiError) return error.retryable;
  return false;
}

function toNetworkError(error: unknown, timedOut: boolean, timeoutMs: number): NetworkError {
  const err = error as { code?: string; cause?: { code?: string }; message?: string; name?: string };
  const code = err.code ?? err.cause?.code;
  if (
    timedOut ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return new NetworkError(`no answer within ${formatMs(timeoutMs)} (timeout)`, { code: "TIMEOUT" });
  }
  if (code === "ECONNREFUSED") return new NetworkError("connection refused", { code, notSent: true });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new NetworkError("could not resolve the API host (DNS)", { code, notSent: true });
  }
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "UND_ERR_CLOSED") {
    return new NetworkError("the connection was closed before the answer was complete", { code });
  }
  const message = err.message ?? String(error);
  return new NetworkError(`network error: ${message}`, { code });
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The server's own message from an error body of unknown shape. */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === "string") {
    const text = body.trim();
    if (!text || text.startsWith("<")) return undefined; // never dump an HTML page
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  const candidates = [
    (b.error as Record<string, unknown> | undefined)?.message,
    b.error,
    b.message,
    b.detail,
    (b.data as Record<string, unknown> | undefined)?.message,
  ];
  for (const c of candidates) {
    if (typeof c === "string" && c.trim()) return c.trim().slice(0, 300);
  }
  return undefined;
}

export function retryAfterMs(headers: ApiResponse["headers"], now = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"];
  if (typeof ms === "string" && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const ra = headers["retry-after"];
  if (typeof ra !== "string") return undefined;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Math.ceil(Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The URL as it may be shown: the key replaced by ***. */
export function redactUrl(url: URL | string): string {
  const u = new URL(String(url));
  const parts = u.search
    .slice(1)
    .split("&")
    .filter(Boolean)
    .map((p) => (p.startsWith("api_key=") ? "api_key=***" : p));
  u.search = parts.join("&");
  return u.toString();
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** A key never travels over plain http, except to this machine. */
export function assertKeyMayTravel(url: URL): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw new UsageError(
    `refusing to send the API key over ${url.protocol.replace(":", "")} to ${url.hostname}; use an https base URL`,
  );
}

function ensureTrailingSlash(url: URL): URL {
  const u = new URL(url);
  if (!u.pathname.endsWith("/")) u.pathname += "/";
  return u;
}
