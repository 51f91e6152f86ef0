import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, redactUrl, retryAfterMs } from "../../src/api/client.js";
import { serverMessage } from "../../src/api/server-message.js";
import { DEFAULT_MAX_BODY_BYTES, formatBytes } from "../../src/contract/limits.js";
import { ApiError, AuthError, NetworkError, UsageError } from "../../src/errors.js";
import { startSandbox } from "../../src/sandbox/server.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(handler: Handler): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push({ close: () => server.close() });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

function client(baseUrl: string, extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const log: string[] = [];
  const c = new ApiClient({
    baseUrl,
    apiKey: "k-secret-123456",
    timeoutMs: 2000,
    retries: 3,
    concurrency: 2,
    log: (l) => log.push(l),
    verbose: false,
    quiet: false,
    random: () => 0, // no jitter wait in tests
    ...extra,
  });
  return { c, log };
}

describe("ApiClient", () => {
  it("follows the sandbox's 301 for the market path without the slash, keeping the key", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const { c } = client(sandbox.url, { apiKey: sandbox.apiKey });
      const res = await c.request("/v1/crypto-market", {
        query: [
          ["chain", "base"],
          ["token_ids", [sandbox.data.list("base", undefined)[0]!.id]],
        ],
      });
      expect(res.status).toBe(200);
      expect((res.body as { data: unknown[] }).data).toHaveLength(1);
      await c.close();
    } finally {
      await sandbox.close();
    }
  });

  it("never follows a redirect to another origin", async () => {
    const other = await serve((_req, res) => json(res, 200, { success: true, data: [] }));
    const first = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.url}/v1/steal` });
      res.end();
    });
    const { c } = client(first.url);
    await expect(c.request("/v1/crypto-market/")).rejects.toThrow(/redirected to another origin/);
    expect(other.hits).toEqual([]);
    await c.close();
  });

  it("retries 423, 429, 502 and 503, honouring Retry-After, and says so", async () => {
    const statuses = [423, 429, 502];
    const { url, hits } = await serve((_req, res) => {
      const s = statuses.shift();
      if (s) json(res, s, { message: "slow down" }, { "retry-after": "0" });
      else json(res, 200, { success: true, data: [] });
    });
    const { c, log } = client(url);
    const res = await c.request("/v1/x");
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(4);
    expect(log).toHaveLength(3);
    expect(log[0]).toMatch(/HTTP 423: slow down; retrying in \d+ ms \(attempt 2 of 4\)/);
    await c.close();
  });

  it("halves the concurrency when throttled", async () => {
    const { url } = await serve((_req, res) => json(res, 429, {}, { "retry-after": "0" }));
    const { c } = client(url, { concurrency: 4, retries: 1 });
    await expect(c.request("/v1/x")).rejects.toThrow(/HTTP 429/);
    expect(c.limiter.limit).toBe(1);
    await c.close();
  });

  it("gives up after the retries with the last error", async () => {
    const { url, hits } = await serve((_req, res) => json(res, 503, { error: { message: "maintenance" } }));
    const { c } = client(url, { retries: 2 });
    await expect(c.request("/v1/x")).rejects.toThrow("HTTP 503: maintenance (gave up after 3 attempts)");
    expect(hits).toHaveLength(3);
    await c.close();
  });

  it("does not retry a POST that reached the server", async () => {
    const { url, hits } = await serve((_req, res) => json(res, 502, {}));
    const { c } = client(url);
    await expect(
      c.request("/v1/ask-loky", { method: "POST", body: { question: "q" } }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(hits).toHaveLength(1);
    await c.close();
  });

  it("retries a POST when the connection was refused (it never reached the server)", async () => {
    const { c, log } = client("http://127.0.0.1:9", { retries: 2 });
    await expect(c.request("/v1/ask-loky", { method: "POST", body: { question: "q" } })).rejects.toThrow(
      "connection refused by 127.0.0.1:9 (gave up after 3 attempts)",
    );
    expect(log).toHaveLength(2);
    await c.close();
  });

  it("puts the key in the JSON body of a POST, and in the query of a GET", async () => {
    let body = "";
    const { url, hits } = await serve((req, res) => {
      req.on("data", (d) => (body += d));
      req.on("end", () => json(res, 200, { success: true, data: {} }));
    });
    const { c } = client(url);
    await c.request("/v1/ask-loky", { method: "POST", body: { question: "q?" } });
    expect(JSON.parse(body)).toEqual({ api_key: "k-secret-123456", question: "q?" });
    expect(hits[0]).toBe("POST /v1/ask-loky");
    await c.request("/v1/agents", { query: [["agent_tickers", ["A&B", "C,D"]]] });
    expect(hits[1]).toBe("GET /v1/agents?agent_tickers=A%26B,C%2CD&api_key=k-secret-123456");
    await c.close();
  });

  it("maps 401 to an auth error, an HTML page to a clear message, and times out a hanging server", async () => {
    const auth = await serve((_req, res) => json(res, 401, { message: "Invalid API key" }));
    await expect(client(auth.url).c.request("/v1/x")).rejects.toBeInstanceOf(AuthError);
    const html = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>oops</html>");
    });
    await expect(client(html.url, { retries: 0 }).c.request("/v1/x")).rejects.toThrow(
      "HTTP 200: the server sent an HTML page (text/html) instead of JSON",
    );
    const hang = await serve(() => {});
    const started = Date.now();
    const err = await client(hang.url, { retries: 0, timeoutMs: 300 })
      .c.request("/v1/x")
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe("no answer within 300 ms (timeout)");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reads a body up to maxBodyBytes (a BOM dropped, UTF-8 intact) and refuses one byte more, once", async () => {
    const body = `\ufeff${JSON.stringify({ data: ["é".repeat(500)] })}`;
    const size = Buffer.byteLength(body);
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(body.slice(0, 7)); // no Content-Length: the cap is counted as the body streams
      res.end(body.slice(7));
    });
    const ok = await client(s.url, { maxBodyBytes: size }).c.request("/v1/x");
    expect(ok.body).toEqual({ data: ["é".repeat(500)] });
    const err = await client(s.url, { maxBodyBytes: size - 1 })
      .c.request("/v1/x")
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe(
      `HTTP 200: the response is larger than ${size - 1} bytes, the cap on one response; stopped reading it (raise the cap with --max-body, e.g. --max-body ${(size - 1) * 4})`,
    );
    expect(s.hits).toHaveLength(2); // the refused body was not asked for again
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
  });

  it("refuses a key over plain http to another host", () => {
    expect(() => client("http://example.com")).toThrow(UsageError);
    expect(() => client("http://localhost:1")).not.toThrow();
    expect(() => client("https://example.com")).not.toThrow();
  });
});

describe("helpers", () => {
  it("formatBytes names round sizes in binary units, the rest in bytes", () => {
    expect(formatBytes(DEFAULT_MAX_BODY_BYTES)).toBe("32 MiB");
    expect(formatBytes(512 * 1024, true)).toBe("512KiB");
    expect(formatBytes(2 * 1024 ** 3)).toBe("2 GiB");
    expect(formatBytes(64_000_000)).toBe("62500 KiB");
    expect(formatBytes(1_000_000)).toBe("1000000 bytes");
    expect(formatBytes(1_000_000, true)).toBe("1000000");
  });

  it("redactUrl hides the key", () => {
    expect(redactUrl("https://h/v1/x?chain=base&api_key=abc123&page=2")).toBe(
      "https://h/v1/x?chain=base&api_key=***&page=2",
    );
  });
  it("retryAfterMs reads seconds, dates and retry-after-ms", () => {
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2000);
    expect(retryAfterMs({ "retry-after-ms": "150" })).toBe(150);
    expect(retryAfterMs({ "retry-after": new Date(10_000).toUTCString() }, 4000)).toBe(6000);
    expect(retryAfterMs({ "retry-after": "garbage" })).toBeUndefined();
    // Invalid values are no value at all (the backoff decides), never "retry at once".
    for (const bad of ["-5", "-0.5", "1e3", "5s", " ", "12/31/2026", "Infinity"])
      expect(retryAfterMs({ "retry-after": bad }, 4000), bad).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "-5" })).toBeUndefined();
  });
  it("serverMessage looks in error.message, error, message, detail; never returns HTML", () => {
    expect(serverMessage({ error: { message: "a" } })).toBe("a");
    expect(serverMessage({ error: "b" })).toBe("b");
    expect(serverMessage({ message: "c" })).toBe("c");
    expect(serverMessage({ detail: "d" })).toBe("d");
    expect(serverMessage("<html><body>502</body></html>")).toBeUndefined();
    expect(serverMessage({})).toBeUndefined();
  });
});
