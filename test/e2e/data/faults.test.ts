import { spawn } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { SandboxOptions, SandboxServer } from "../../../src/sandbox/server.js";
import { run } from "../../commands/harness.js";
import { neverShown, useServers } from "../fixtures.js";
import { BIN, baseEnv, transcript } from "../helpers.js";

// Unattended jobs against a service that throttles, fails and repeats itself: every record exactly
// once and in order, or a loud failure with no corrupt output. The key never shows.

const KEY = `sk_fault_${Math.random().toString(36).slice(2)}_hush`;
const servers = useServers();
const dir = { path: servers.folder() };
neverShown(KEY);

const sandboxWith = (options: SandboxOptions): Promise<SandboxServer> =>
  servers.sandbox({ apiKey: KEY, seed: 11, ...options });

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  return (await servers.stub(handler)).url;
}

const cli = (url: string, args: string[]) =>
  run(["--base-url", url, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY }, timeoutMs: 60_000 });

const ids = (ndjson: string) =>
  ndjson
    .trimEnd()
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe("recoverable faults: every record exactly once, in order", () => {
  const faults: Array<[string, SandboxOptions]> = [
    ["502s", { failRate: 0.3 }],
    ["423 throttling", { throttleRate: 0.3, throttleStatus: 423 }],
    ["429 throttling", { throttleRate: 0.3 }],
    ["connection resets", { resetRate: 0.2 }],
    ["truncated bodies", { truncateRate: 0.2 }],
    ["HTML error pages", { htmlRate: 0.2 }],
    ["hanging requests", { hangRate: 0.1 }],
    ["repeated records", { duplicateRate: 0.5 }],
    [
      "all of them together",
      {
        latencyMs: 5,
        failRate: 0.1,
        throttleRate: 0.1,
        throttleStatus: 423,
        resetRate: 0.05,
        truncateRate: 0.05,
        htmlRate: 0.05,
        hangRate: 0.02,
        duplicateRate: 0.1,
      },
    ],
  ];
  for (const [name, options] of faults) {
    it(name, async () => {
      const s = await sandboxWith(options);
      const r = await cli(s.url, [
        "--timeout",
        "400ms",
        "--retries",
        "8",
        "market",
        "-c",
        "base",
        "-e",
        "virtuals",
        "--ndjson",
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(s.data.list("base", "virtuals").map((t) => t.id));
      if (!options.duplicateRate || Object.keys(options).length > 1) expect(r.stderr).toMatch(/retrying in/);
      // The same through a chunked selector list and --json.
      const tickers = s.data
        .list("base", undefined)
        .slice(200, 275)
        .map((t) => t.symbol);
      const j = await cli(s.url, [
        "--timeout",
        "400ms",
        "--retries",
        "8",
        "-q",
        "market",
        "-c",
        "base",
        "--tickers",
        tickers.join(","),
        "--json",
      ]);
      expect(j.code, j.stderr).toBe(0);
      expect(
        (JSON.parse(j.stdout) as Array<{ token_info: { symbol: string } }>).map((x) => x.token_info.symbol),
      ).toEqual(tickers);
      expect(j.stderr).toBe(""); // --quiet: no retry lines
    });
  }

  it("a 40-page pull under a concurrency quota lowers its concurrency and finishes", async () => {
    const s = await sandboxWith({ tokens: 1200, maxInFlight: 1, latencyMs: 20 });
    const r = await cli(s.url, ["-q", "--retries", "4", "market", "-c", "base", "--ndjson"]);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(s.data.list("base", undefined).map((t) => t.id));
    // Halving on the first 429s keeps the rest of the run under the quota: a handful of throttled
    // answers, not one per page.
    const throttled = s.stats.byStatus[429] ?? 0;
    expect(throttled).toBeGreaterThan(0);
    expect(throttled).toBeLessThan(15);
  });
});

describe("unrecoverable faults: non-zero exit, no corrupt output", () => {
  it("a service that always fails: exit 1, --json prints nothing, one line naming the status", async () => {
    const s = await sandboxWith({ failRate: 1 });
    const r = await cli(s.url, ["--retries", "2", "-q", "market", "-c", "base", "-e", "virtuals", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe("tokenintel: HTTP 502: Bad gateway (gave up after 3 attempts)");
  });

  it("an HTML page for good: says so without dumping the HTML", async () => {
    const s = await sandboxWith({ htmlRate: 1 });
    const r = await cli(s.url, ["--retries", "1", "-q", "directory", "-c", "base"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("tokenintel: HTTP 502 (gave up after 2 attempts)");
    expect(r.stderr).not.toMatch(/<html|<h1/);
  });

  it("a server that never answers costs at most the timeout per attempt", async () => {
    const s = await sandboxWith({ hangRate: 1 });
    const r = await cli(s.url, ["--timeout", "300ms", "--retries", "1", "-q", "market", "-c", "base"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("tokenintel: no answer within 300 ms (timeout; gave up after 2 attempts)");
  });

  it("a 200 with success: false is an error, not retried", async () => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ success: false, message: "Quota exceeded for this key" }));
    });
    const r = await cli(url, ["market", "-c", "base", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "tokenintel: HTTP 200: the server reported a failure: Quota exceeded for this key",
    );
    expect(hits).toBe(1);
  });

  it("--ndjson keeps the complete lines it wrote and says which pages are missing", async () => {
    const url = await serve((req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page"));
      if (page >= 3) {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "down for maintenance" }));
        return;
      }
      const data = Array.from({ length: 30 }, (_, i) => ({ id: `p${page}-${i}` }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          success: true,
          data,
          meta: { pagination: { page, pageSize: 30, pageCount: 5, total: 150 } },
        }),
      );
    });
    const r = await cli(url, ["--retries", "1", "-q", "market", "-c", "base", "--ndjson"]);
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith("\n")).toBe(true);
    expect(ids(r.stdout)).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `p1-${i}`),
      ...Array.from({ length: 30 }, (_, i) => `p2-${i}`),
    ]);
    expect(r.stderr.trim()).toBe(
      "tokenintel: HTTP 503: down for maintenance (gave up after 2 attempts) [page 3 of 5 failed: records from page 3 on are missing]",
    );
  });

  it("one chunk of a long list failing for good fails the command and names the missing items", async () => {
    const url = await serve((req, res) => {
      const tickers = new URL(req.url ?? "/", "http://x").searchParams.get("token_tickers")?.split(",") ?? [];
      if (tickers.includes("T40")) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "internal" }));
        return;
      }
      const data = tickers.map((t) => ({ id: t, token_info: { symbol: t } }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          success: true,
          data,
          meta: { pagination: { page: 1, pageSize: 30, pageCount: 1, total: data.length } },
        }),
      );
    });
    const list = Array.from({ length: 75 }, (_, i) => `T${i}`).join(",");
    const json = await cli(url, ["--retries", "0", "market", "-c", "base", "--tickers", list, "--json"]);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe("");
    expect(json.stderr.trim()).toBe(
      "tokenintel: HTTP 500: internal [request for items 31-60 of 75 failed: 45 items are missing: T30, T31, T32, T33, T34, T35, T36, T37, T38, T39, …]",
    );
    const nd = await cli(url, ["--retries", "0", "market", "-c", "base", "--tickers", list, "--ndjson"]);
    expect(nd.code).toBe(1);
    expect(ids(nd.stdout)).toEqual(Array.from({ length: 30 }, (_, i) => `T${i}`));
  });

  it("Ctrl-C stops in-flight requests and exits 130 without a trace", async () => {
    const s = await sandboxWith({ hangRate: 1 });
    const child = spawn(process.execPath, [BIN, "--base-url", s.url, "market", "-c", "base", "--json"], {
      env: { ...baseEnv(dir.path), TOKENINTEL_API_KEY: KEY },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    const start = Date.now();
    while (s.stats.inFlight < 1 && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(s.stats.inFlight).toBe(1);
    const code = await new Promise<number | null>((resolve) => {
      child.on("close", (c) => resolve(c));
      child.kill("SIGINT");
    });
    transcript.push(stdout, stderr);
    expect(code).toBe(130);
    expect(stdout).toBe("");
    expect(stderr).toBe("");
    // The request was stopped, not left hanging on the server.
    const until = Date.now() + 2000;
    while (s.stats.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(s.stats.inFlight).toBe(0);
  });
});

describe("hostile strings from the server", () => {
  it("a terminal never receives escape sequences; JSON keeps them escaped", async () => {
    const evil = "EVIL\x1b[2J\x1b]0;owned\x07\x1b]8;;http://phish\x1b\\click\x1b]8;;\x1b\\\u202e";
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          success: true,
          data: [
            {
              id: "e1",
              token_info: { symbol: evil, name: `name ${evil}`, description: evil },
              token_metrics: { usd_price: "1.5" },
            },
          ],
          meta: { pagination: { page: 1, pageSize: 30, pageCount: 1, total: 1 } },
        }),
      );
    });
    const table = await run(["--base-url", url, "market", "-c", "base"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_FORCE_TTY: "1", FORCE_COLOR: "0" },
    });
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/[\x1b\x07\u202e]/);
    expect(table.stdout).toContain("EVILclick");
    const json = await run(["--base-url", url, "market", "-c", "base", "--json"], dir.path, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(json.stdout).toContain("EVIL\\u001b[2J\\u001b]0;owned\\u0007");
    expect((JSON.parse(json.stdout) as Array<{ token_info: { symbol: string } }>)[0]!.token_info.symbol).toBe(
      evil,
    );
  });
});
