import { Agent, type Dispatcher } from "undici";
import { DEFAULT_MAX_BODY_BYTES, formatBytes, MAX_BODY_CAP_BYTES } from "../contract/limits.js";
import { ApiError, CliError, InterruptedError, NetworkError } from "../errors.js";
import { JsonDepthError, parseJson } from "../json/exact.js";
import { formatDuration } from "../text.js";
import { assertSameOrigin, redactUrl } from "./urls.js";

// One HTTP exchange on the run's keep-alive pool: a timeout per attempt, a body read within its
// cap, JSON decoded (depth-bounded), and failures named the way a person reads them.

export interface ApiResponse {
  status: number;
  /** The reason phrase the server sent ("Not Found"), as sent: untrusted, for `api --include`. */
  statusText?: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The body as the server sent it. */
  text: string;
  url: string;
}

export interface TransportOptions {
  /** The one origin requests go to (the base URL's): anything else is refused, never sent. */
  origin: string;
  concurrency: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The most bytes one response body may hold (--max-body). */
  maxBodyBytes?: number;
  /** Request and answer lines for --verbose, or undefined. */
  trace?: (line: string) => void;
  /** Where the base URL came from (--base-url, TOKENINTEL_BASE_URL, config base-url...), for errors. */
  originSource?: string;
}

export interface Exchange {
  method: string;
  url: URL;
  payload: string | undefined;
  headers: Record<string, string> | undefined;
  /** Keep a 2xx body as text without requiring JSON. */
  raw: boolean;
  /**
   * Called once the whole body is in, before it is decoded: the caller frees the request's slot,
   * and the request waiting for it goes out before this body's JSON is parsed.
   */
  received?: () => void;
  /** The request's own end, beside the run's (an MCP call cancelled by its client). */
  signal?: AbortSignal;
}

export class Transport {
  private readonly agent: Agent;

  constructor(private readonly options: TransportOptions) {
    this.agent = new Agent({
      connections: Math.max(1, options.concurrency),
      pipelining: 1,
      keepAliveTimeout: 10_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    });
  }

  /** Ends the pool's connections, dropping requests nobody waits for (pages past the end). */
  async close(): Promise<void> {
    await this.agent.destroy().catch(() => {});
  }

  async send({ method, url, payload, headers, raw, received, signal: own }: Exchange): Promise<ApiResponse> {
    const { signal: runSignal, timeoutMs, trace } = this.options;
    // The last line of defence: whatever built this URL, a request leaves only for the API's origin.
    assertSameOrigin(url, this.options.origin);
    // One controller per attempt, aborted by the attempt's timeout or by the run's signal (cheaper
    // than AbortSignal.timeout plus AbortSignal.any, which cost ~40 µs a request on Node 20).
    const attempt = new AbortController();
    const signal = attempt.signal;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    }, timeoutMs);
    const onRunAbort = () => attempt.abort(runSignal?.reason);
    if (runSignal?.aborted) onRunAbort();
    else runSignal?.addEventListener("abort", onRunAbort, { once: true });
    const onOwnAbort = () => attempt.abort(own?.reason);
    if (own?.aborted) onOwnAbort();
    else own?.addEventListener("abort", onOwnAbort, { once: true });
    // Date.now, not performance.now: the `performance` global loads perf_hooks (~2 ms at start-up).
    const t0 = Date.now();
    trace?.(`> ${method} ${redactUrl(url)}`);
    try {
      const { res, text } = await exchange(
        this.agent,
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: method as Dispatcher.HttpMethod,
          headers: {
            accept: "application/json",
            "user-agent": "tokenintel",
            ...(payload !== undefined ? { "content-type": "application/json" } : {}),
            ...headers,
          },
          body: payload,
        },
        signal,
        this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      );
      if (received) {
        received();
        // One turn of the event loop: the next request is sent (and other answers read) first.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      trace?.(`< ${res.statusCode} (${Date.now() - t0} ms, ${text.length} bytes)`);
      return {
        status: res.statusCode,
        statusText: res.statusText,
        headers: res.headers,
        body: raw && res.statusCode < 300 ? undefined : decodeBody(res.statusCode, res.headers, text),
        text,
        url: redactUrl(url),
      };
    } catch (error) {
      if (runSignal?.aborted || own?.aborted) throw new InterruptedError();
      if (error instanceof CliError) throw error;
      throw toNetworkError(error, timedOut, timeoutMs, url, this.options.originSource);
    } finally {
      clearTimeout(timer);
      runSignal?.removeEventListener("abort", onRunAbort);
      own?.removeEventListener("abort", onOwnAbort);
    }
  }
}

/** JSON for 2xx answers (an error when it is not), best effort for the rest. */
function decodeBody(status: number, headers: ApiResponse["headers"], text: string): unknown {
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

interface Answer {
  statusCode: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The message for a body past its cap, with a --max-body that would fit it when its size is known. */
function tooLarge(status: number, cap: number, size?: number): ApiError {
  // A cap that fits the body when its size was announced (the next power of two above it), else
  // four times the cap; never past what --max-body allows.
  const fits = size !== undefined ? 2 ** Math.ceil(Math.log2(size + 1)) : cap * 4;
  const raise =
    cap < MAX_BODY_CAP_BYTES && (size === undefined || size <= MAX_BODY_CAP_BYTES)
      ? `raise the cap with --max-body, e.g. --max-body ${formatBytes(Math.min(Math.max(fits, 1024), MAX_BODY_CAP_BYTES), true)}`
      : "--max-body allows no more";
  return new ApiError(
    `HTTP ${status}: the response is larger than ${formatBytes(cap)}, the cap on one response; stopped reading it (${raise})`,
    { status },
  );
}

/**
 * One request on the pool, its answer's body read as text and counted as it arrives: past `cap`
 * bytes (or when Content-Length announces more) the request is aborted and the attempt fails, so
 * memory never holds more than the cap. Not retryable: the same request would bring the same body.
 *
 * A dispatch() handler on undici's current hooks (onRequestStart... onResponseError) rather than
 * undici's request(): the body is wanted whole, and request()'s stream (a Readable a response, with
 * its events and ticks) cost ~0.1 ms a page, a tenth of a 100,000-record stream's time.
 */
function exchange(
  agent: Agent,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal,
  cap: number,
): Promise<{ res: Answer; text: string }> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let res: Answer | undefined;
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return false;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      if (error) {
        chunks = [];
        reject(error);
      }
      return true;
    };
    const fail = (error: Error) => {
      if (settle(error)) controller?.abort(error);
    };
    const onAbort = () => fail(signal.reason);
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    agent.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (settled) started.abort(new Error("aborted"));
      },
      onResponseStart(_controller, statusCode, headers, statusText) {
        if (statusCode < 200) return; // 1xx: the answer is still to come
        res = { statusCode, statusText: statusText ?? "", headers };
        const declared = options.method === "HEAD" ? Number.NaN : Number(headers["content-length"]);
        if (Number.isFinite(declared) && declared > cap) fail(tooLarge(statusCode, cap, declared));
      },
      onResponseData(_controller, chunk) {
        if (settled) return;
        size += chunk.length;
        if (size > cap) fail(tooLarge(res!.statusCode, cap));
        else chunks.push(chunk);
      },
      onResponseEnd() {
        if (!settle()) return;
        const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
        // Like undici's text(): UTF-8, without a byte order mark.
        const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
        resolve({ res: res!, text: buffer.toString("utf8", bom ? 3 : 0) });
      },
      onResponseError(_controller, error) {
        settle(error);
      },
    });
  });
}

/** host:port of a URL, the port written even when it is the scheme's own. */
function hostPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

function toNetworkError(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
  url: URL,
  source: string | undefined,
): NetworkError {
  // An address nothing answers at is most often a stale setting: say which one.
  const from = source ? ` (the base URL ${url.origin} is from ${source})` : "";
  const err = error as { code?: string; cause?: { code?: string }; message?: string; name?: string };
  const code = err.code ?? err.cause?.code;
  if (
    timedOut ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return new NetworkError(`no answer within ${formatDuration(timeoutMs)} (timeout)`, { code: "TIMEOUT" });
  }
  if (code === "ECONNREFUSED")
    return new NetworkError(`connection refused by ${hostPort(url)}${from}`, { code, notSent: true });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new NetworkError(`could not resolve the API host ${url.hostname} (DNS)${from}`, {
      code,
      notSent: true,
    });
  }
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "UND_ERR_CLOSED") {
    return new NetworkError("the connection was closed before the answer was complete", { code });
  }
  const message = err.message ?? String(error);
  return new NetworkError(`network error: ${message}`, { code });
}
