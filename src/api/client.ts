import type { ResponseCache } from "../cache/responses.js";
import { ApiError, AuthError, CliError, InterruptedError, NetworkError, PaymentError } from "../errors.js";
import { parseJson, stringifyJson } from "../json/exact.js";
import { sleep } from "../sleep.js";
import { Limiter } from "./limiter.js";
import type { PayTurn } from "./pay-order.js";
import {
  backoffMs,
  isRetryable,
  RETRY_BUDGET_MS,
  RETRY_STATUSES,
  retryAfterMs,
  THROTTLE_STATUSES,
} from "./retry.js";
import { serverMessage } from "./server-message.js";
import { type ApiResponse, Transport } from "./transport.js";
import { assertKeyMayTravel, buildUrl, followRedirect, type Query, redactUrl } from "./urls.js";

// The HTTP client every command uses. A request is tried (retry.ts) as one exchange, which
// follows same-origin redirects and answers a 402 once through the payment hook; the limiter
// (concurrency, --rate, AIMD on throttling) admits every attempt; transport.ts does the HTTP.

export { retryAfterMs } from "./retry.js";
export type { ApiResponse } from "./transport.js";
export { assertKeyMayTravel, isLoopback, type Query, type QueryValue, redactUrl } from "./urls.js";

export interface ClientOptions {
  baseUrl: string;
  /** Where baseUrl came from, named when nothing answers there ("--base-url", "TOKENINTEL_BASE_URL"). */
  baseUrlSource?: string;
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
  /** Answers to GETs kept on disk (--cache <ttl>); `cacheOrigin` names the server in its keys. */
  cache?: ResponseCache;
  cacheOrigin?: string;
}

/** What the registry says one request costs (USDC, as written there), and what it is the price of. */
export interface ListPrice {
  usdc: string;
  of: string;
}

/**
 * How payment joins the client: the client knows only that a 402 may be answered by sending the
 * request again with some headers, once; what to pay and what to say is the hook's business.
 */
export interface PaymentHook {
  /**
   * A 402 to a request that carried no payment: the headers to send it again with; throws to refuse.
   * `listPrice`: the request's price in the registry, which an offer may not pass unasked.
   */
  pay?(res: ApiResponse, label: string | undefined, listPrice?: ListPrice): Promise<Record<string, string>>;
  /** An attempt of the paid request got no answer, and it is sent again with the same payment. */
  answerLost?(headers: Record<string, string>): void;
  /** The paid request ended with no answer read (its payment may still be cashed). */
  unanswered?(headers: Record<string, string>, why: string): void;
  /** The paid request was answered with a 2xx. */
  settled?(res: ApiResponse, headers: Record<string, string>): Promise<void>;
  /** The error a 402 ends in; `paid` when the server refused a payment that was sent (`payment`). */
  refusal(res: ApiResponse, paid: boolean, payment?: Record<string, string>): Promise<CliError>;
}

export interface RequestOptions {
  method?: "GET" | "POST";
  query?: Query;
  /** The JSON body of a POST; the key is added to it when it is an object. */
  body?: unknown;
  /** A short label for messages, e.g. "page 3". */
  label?: string;
  /** The registry's price of this request: a payment hook refuses an offer above it unless told otherwise. */
  listPrice?: ListPrice;
  /** Keep a 2xx body as text without requiring JSON (`tokenintel api` prints it as sent). */
  raw?: boolean;
  /** Hand a 402 back as an answer instead of paying or failing (a dry run reads its offer). */
  returnPaymentRequired?: boolean;
  /**
   * This request's own end (an MCP call cancelled by its client): once aborted, it is not sent,
   * retried or paid for. A payment already signed stays signed.
   */
  signal?: AbortSignal;
  /**
   * Once aborted, a 402 to this request is not paid (the request fails as interrupted), while the
   * request itself may go on: an MCP walk's page outlives a cancelled call, its payment does not.
   */
  payGate?: AbortSignal;
  /** This request's turn to pay among a walk's (pay-order.ts): a 402 is paid only after those asked before it. */
  payTurn?: PayTurn;
}

/** What one request carries from attempt to attempt. */
interface Flight {
  method: "GET" | "POST";
  url: URL;
  payload: string | undefined;
  opts: RequestOptions;
  /**
   * The payment, once made: it goes with every retry of this request and is the only one it
   * gets; a 402 to the paid request is the server refusing it, never a reason to sign again.
   */
  paid?: Record<string, string>;
}

export class ApiClient {
  readonly baseUrl: URL;
  readonly limiter: Limiter;
  private readonly transport: Transport;
  private readonly random: () => number;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = new URL(options.baseUrl);
    if (options.apiKey) assertKeyMayTravel(this.baseUrl);
    this.transport = new Transport({
      origin: this.baseUrl.origin,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      maxBodyBytes: options.maxBodyBytes,
      trace: options.verbose ? options.log : undefined,
      originSource: options.baseUrlSource,
    });
    this.limiter = new Limiter(
      Math.max(1, options.concurrency),
      options.ratePerMinute ? 60_000 / options.ratePerMinute : 0,
    );
    this.random = options.random ?? Math.random;
  }

  /**
   * This client with another answer to a 402 (a run paying through a shared session under its own
   * name): connections, limits, cache and settings shared. The client keeps no state of its own
   * past its constructor, so the view and the client are one but for the hook.
   */
  withPayment(payment: PaymentHook): ApiClient {
    if (payment === this.options.payment) return this;
    const view = Object.create(this) as ApiClient;
    Object.defineProperty(view, "options", { value: { ...this.options, payment } });
    return view;
  }

  get hasKey(): boolean {
    return Boolean(this.options.apiKey);
  }

  /** The client-side ceiling from --rate, if any. */
  get ratePerMinute(): number | undefined {
    return this.options.ratePerMinute;
  }

  /** Ends the run's connections, dropping requests nobody waits for (pages fetched past the end). */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** The URL for a path and query, with the key added where it belongs (GETs). */
  buildUrl(path: string, query: Query = [], withKey = true): URL {
    return buildUrl(this.baseUrl, path, query, withKey ? this.options.apiKey : undefined);
  }

  /** The response cache's key for a GET (the key itself stands in it as a digest, never as text). */
  private cacheKey(path: string, query: Query | undefined) {
    const url = this.buildUrl(path, query, false);
    return {
      origin: this.options.cacheOrigin ?? url.origin,
      method: "GET" as const,
      target: `${url.pathname}${url.search}`,
      apiKey: this.options.apiKey,
    };
  }

  /** How old the response cache's answer to this GET is, in ms; undefined when it holds none fresh. */
  cachedAgeMs(path: string, query?: Query): number | undefined {
    const cache = this.options.cache;
    if (!cache?.enabled) return undefined;
    return cache.get(this.cacheKey(path, query))?.ageMs;
  }

  async request(path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const method = opts.method ?? "GET";
    const cache = this.options.cache;
    // A dry run reads a fresh offer; everything else a GET asks may come from the cache.
    if (cache?.enabled && method === "GET" && !opts.returnPaymentRequired) {
      const key = this.cacheKey(path, opts.query);
      const hit = cache.get(key);
      const body = hit && !opts.raw ? jsonOrMiss(hit.text) : undefined;
      if (hit && body !== MISS) {
        cache.hits++;
        const shown = redactUrl(this.buildUrl(path, opts.query));
        if (this.options.verbose)
          this.options.log(`> GET ${shown} from cache (age ${Math.floor(hit.ageMs / 1000)}s)`);
        return { status: hit.status, headers: hit.headers, body, text: hit.text, url: shown };
      }
      const res = await this.fetch(path, method, opts);
      cache.put(key, res);
      return res;
    }
    return this.fetch(path, method, opts);
  }

  /** A request over the network: retried, redirected, paid as needed. */
  private async fetch(path: string, method: "GET" | "POST", opts: RequestOptions): Promise<ApiResponse> {
    const flight: Flight = {
      method,
      url: this.buildUrl(path, opts.query, method === "GET"),
      payload: method === "POST" ? this.postBody(opts.body ?? {}) : undefined,
      opts,
    };
    const started = Date.now();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.exchange(flight);
        } catch (caught) {
          if (caught instanceof InterruptedError) throw caught;
          const error = caught instanceof CliError ? caught : new NetworkError(String(caught));
          const delay = this.retryDelay(error, flight, attempt, Date.now() - started);
          // Sent again with the same payment: a refusal of it now may follow the server taking it.
          if (flight.paid) this.options.payment?.answerLost?.(flight.paid);
          await sleep(delay, signalOf(this.options.signal, opts.signal)).catch(() => {
            throw new InterruptedError();
          });
        }
      }
    } catch (error) {
      // A paid request that ends with no answer read (the connection died, a timeout, Ctrl-C):
      // the payment session records that its outcome is unknown.
      if (flight.paid) this.options.payment?.unanswered?.(flight.paid, (error as Error).message);
      throw error;
    }
  }

  /** How long to wait before trying again; throws the error (annotated) when it is not retried. */
  private retryDelay(error: CliError, flight: Flight, attempt: number, elapsed: number): number {
    const retryable = isRetryable(error, flight.method);
    if (!retryable || attempt > this.options.retries) {
      throw annotate(error, retryable && attempt > 1 ? `gave up after ${attempt} attempts` : undefined);
    }
    const delay = backoffMs(attempt, error instanceof ApiError ? error.retryAfterMs : undefined, this.random);
    if (elapsed + delay > RETRY_BUDGET_MS) {
      throw annotate(error, `the server asks to wait ${Math.ceil(delay / 1000)} s more; gave up`);
    }
    if (!this.options.quiet) {
      const what = flight.opts.label ? ` (${flight.opts.label})` : "";
      this.options.log(
        `tokenintel: ${error.message}${what}; retrying in ${waitText(delay)} (attempt ${attempt + 1} of ${this.options.retries + 1})`,
      );
    }
    return delay;
  }

  /** One attempt: the answer, after the redirects and the one payment it takes; throws on failure. */
  private async exchange(flight: Flight): Promise<ApiResponse> {
    const hook = this.options.payment;
    for (let redirects = 0; ; ) {
      const res = await this.send(flight);
      if (res.status >= 300 && res.status < 400 && typeof res.headers.location === "string") {
        flight.url = followRedirect(flight.url, res.headers.location, ++redirects, this.options.apiKey);
        continue;
      }
      if (res.status >= 200 && res.status < 300) {
        this.limiter.succeeded();
        if (flight.paid) await hook?.settled?.(res, flight.paid);
        return res;
      }
      if (res.status === 402 && flight.opts.returnPaymentRequired) return res;
      if (res.status === 402 && hook?.pay && !flight.paid) {
        await flight.opts.payTurn?.wait();
        if (flight.opts.signal?.aborted || flight.opts.payGate?.aborted) throw new InterruptedError();
        try {
          flight.paid = await hook.pay(res, flight.opts.label, flight.opts.listPrice);
        } catch (error) {
          flight.opts.payTurn?.stop("an earlier page was not paid");
          throw error;
        }
        flight.opts.payTurn?.done();
        continue;
      }
      const error = res.status === 402 ? await this.paymentRequired(res, flight.paid) : this.errorFor(res);
      error.response = {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
        text: res.text,
      };
      if (THROTTLE_STATUSES.has(res.status)) this.limiter.throttled();
      throw error;
    }
  }

  /** Sends once the limiter admits it (concurrency, --rate). */
  private async send(flight: Flight): Promise<ApiResponse> {
    if (flight.opts.signal?.aborted) throw new InterruptedError();
    const release = await this.limiter
      .acquire(signalOf(this.options.signal, flight.opts.signal))
      .catch(() => {
        throw new InterruptedError();
      });
    try {
      return await this.transport.send({
        method: flight.method,
        url: flight.url,
        payload: flight.payload,
        headers: flight.paid,
        raw: flight.opts.raw ?? false,
        received: release,
        signal: flight.opts.signal,
      });
    } finally {
      release();
    }
  }

  private postBody(body: unknown): string {
    const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
    if (!isObject || !this.options.apiKey) return stringifyJson(body);
    return stringifyJson({ api_key: this.options.apiKey, ...(body as object) });
  }

  /** A 402 the run does not (or no longer) pay: the hook says why, else a plain refusal. */
  private async paymentRequired(
    res: ApiResponse,
    paid: Record<string, string> | undefined,
  ): Promise<CliError> {
    if (this.options.payment) return this.options.payment.refusal(res, paid !== undefined, paid);
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

const MISS = Symbol("not JSON");

/** A cached body as JSON; a body kept as text (`tokenintel api`) that is not JSON is a miss here. */
function jsonOrMiss(text: string): unknown {
  if (!text.length) return undefined;
  try {
    return parseJson(text);
  } catch {
    return MISS;
  }
}

/** Adds a note to an error's message: inside its closing parenthesis when it ends in one. */
function annotate<T extends CliError>(error: T, note: string | undefined): T {
  if (!note) return error;
  error.message = error.message.endsWith(")")
    ? `${error.message.slice(0, -1)}; ${note})`
    : `${error.message} (${note})`;
  return error;
}

/** A wait as a person reads it: "1.5 s", "300 ms" (never "0.0 s"). */
function waitText(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.max(1, Math.round(ms))} ms`;
}

/** The run's signal, and the request's own when it has one (an MCP call's). */
function signalOf(run: AbortSignal | undefined, own: AbortSignal | undefined): AbortSignal | undefined {
  if (!own) return run;
  return run ? AbortSignal.any([run, own]) : own;
}
