import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { neverShown, useServers } from "../../e2e/fixtures.js";
import type { RunResult } from "../../e2e/helpers.js";
import { type HostileHandler, type HostileServer, sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// Memory and time: a hostile server can send an endless body, pages that never end or
// repeat forever, JSON nested 100,000 deep and strings of many megabytes. Every run ends, in one
// line on stderr, with what was fetched still printed where the run could print it.

const KEY = `sk_limits_${Math.random().toString(36).slice(2)}_hush`;
const servers = useServers();
const dir = { path: servers.folder() };
neverShown(KEY);

const serve = (handler: HostileHandler): Promise<HostileServer> => servers.stub(handler);

const cli = (s: HostileServer, args: string[]) =>
  run(["--base-url", s.url, ...args], dir.path, { env: { TOKENINTEL_API_KEY: KEY }, timeoutMs: 60_000 });

const pageOf = (url: string) => Number(new URL(url, "http://x").searchParams.get("page") ?? "1");

/** The run failed with exit 1 and one clean line, no stack trace, no stack overflow. */
function failsInOneLine(r: RunResult, pattern: RegExp): void {
  expect(r.signal).toBeNull();
  expect(r.code).toBe(1);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines.at(-1)).toMatch(/^tokenintel: /);
  expect(lines.at(-1)).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at |Maximum call stack|RangeError/);
}

const ndjsonLines = (out: string) => out.trimEnd().split("\n").filter(Boolean);

/**
 * Streams a 200 body that never ends: JSON-looking bytes as fast as the client takes them. The
 * server stops writing (and then hangs, never ending the body) after 1 GiB: a safety net so that a
 * client without a cap fails this test on its timeout instead of exhausting the machine.
 */
function endlessBody(res: ServerResponse, sent: { bytes: number }): void {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.from(`${'{"id":"x","symbol":"ENDLESS"},'.repeat(2048)}`);
  res.write('{"success":true,"data":[');
  let open = true;
  res.on("close", () => {
    open = false;
  });
  const pump = () => {
    while (open && sent.bytes < 1024 ** 3) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
  };
  pump();
}

describe("a response body is capped as it streams", () => {
  it("an endless 200 body stops at the default 32 MiB cap: one line naming the cap and --max-body, exit 1, never retried", async () => {
    const sent = { bytes: 0 };
    const s = await serve((_req, res) => endlessBody(res, sent));
    const r = await cli(s, ["market", "--chain", "base", "--json", "--retries", "3", "--timeout", "10s"]);
    failsInOneLine(r, /larger than 32 MiB, the cap on one response.*--max-body/);
    expect(r.stdout).toBe("");
    expect(s.requests).toHaveLength(1); // the same request would bring the same body: not retried
  });

  it("`api` (the body printed as sent) is capped too, and --max-body lowers the cap", async () => {
    const sent = { bytes: 0 };
    const s = await serve((_req, res) => endlessBody(res, sent));
    const r = await cli(s, ["--max-body", "1MiB", "--timeout", "10s", "api", "/v1/anything"]);
    // The size is not announced: four times the cap is suggested.
    failsInOneLine(r, /larger than 1 MiB.*--max-body 4MiB/);
    expect(r.stdout).toBe("");
    expect(s.requests).toHaveLength(1);
  });

  it("a body under --max-body passes; over it, it is refused whether Content-Length announces it or not", async () => {
    const records = Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, pad: "p".repeat(20_000) }));
    const body = JSON.stringify({ success: true, data: records }); // about 600 KB
    expect(body.length).toBeGreaterThan(512 * 1024);
    expect(body.length).toBeLessThan(1024 * 1024);
    const s = await serve((req, res) => {
      if (req.url?.includes("chunked")) {
        res.writeHead(200, { "content-type": "application/json" }); // no Content-Length: counted as it streams
        res.write(body.slice(0, 1000));
        res.end(body.slice(1000));
      } else sendJson(res, body); // Node sets Content-Length
    });
    const ok = await cli(s, ["--max-body", "1MiB", "api", "/v1/sized", "--paginate"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveLength(30);
    // The cap suggested fits the body (a size announced or not: the next power of two above an
    // announced one, four times the cap otherwise): never a retry that fails again.
    for (const path of ["/v1/sized", "/v1/chunked"]) {
      const r = await cli(s, ["--max-body", "512KiB", "api", path]);
      failsInOneLine(r, /larger than 512 KiB.*--max-body \d+(KiB|MiB)\)/);
      const [, n, unit] = /--max-body (\d+)(KiB|MiB)\)/.exec(r.stderr)!;
      expect(Number(n) * (unit === "MiB" ? 1024 * 1024 : 1024)).toBeGreaterThanOrEqual(body.length);
      expect(r.stdout).toBe("");
    }
    const decimal = await cli(s, ["--max-body", "500KB", "api", "/v1/chunked"]);
    failsInOneLine(decimal, /larger than 500000 bytes.*--max-body 2000000\)/);
  });

  it("--max-body takes sizes like 64MB or 512KiB and refuses anything else before any request (exit 2)", async () => {
    const s = await serve((_req, res) => sendJson(res, { success: true, data: [] }));
    for (const bad of ["lots", "0", "-5MB", "12XB", "100", "1GB"]) {
      const r = await cli(s, ["--max-body", bad, "market", "--chain", "base"]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd()).toMatch(/^tokenintel: --max-body: expected a size from 1KiB to 256MiB/);
    }
    expect(s.requests).toHaveLength(0);
    const r = await cli(s, ["--max-body", "64MB", "market", "--chain", "base", "--json"]);
    expect(r.code).toBe(0);
  });
});

/** `count` records with ids unique to the page. */
const newRecords = (page: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `p${page}-${i}`, symbol: `T${page}X${i}` }));

describe("every page walk ends", () => {
  it("a server whose every page is new and full (no page count) is walked to --max-pages (one more request to look); what was fetched is printed", async () => {
    const s = await serve((req, res) =>
      sendJson(res, { success: true, data: newRecords(pageOf(req.url!), 100) }),
    );
    const json = await cli(s, ["directory", "--chain", "base", "--max-pages", "5", "--json"]);
    failsInOneLine(json, /stopped at page 5, the page ceiling.*--max-pages/);
    // Pages 1-5, and page 6 to learn whether the listing ends there; nothing further, not even speculatively.
    expect(s.requests.map((q) => pageOf(q.url)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    const records = JSON.parse(json.stdout) as Array<{ id: string }>;
    expect(records).toHaveLength(500);
    expect(records.at(-1)!.id).toBe("p5-99");

    const nd = await cli(s, ["directory", "--chain", "base", "--max-pages", "3", "--ndjson"]);
    failsInOneLine(nd, /stopped at page 3, the page ceiling/);
    expect(ndjsonLines(nd.stdout)).toHaveLength(300);
    expect(s.requests).toHaveLength(6 + 4);
  });

  it("a listing of exactly --max-pages full pages is complete (exit 0): the page after it is empty", async () => {
    const s = await serve((req, res) => {
      const page = pageOf(req.url!);
      sendJson(res, { success: true, data: page <= 4 ? newRecords(page, 100) : [] });
    });
    const r = await cli(s, ["directory", "--chain", "base", "--max-pages", "4", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toHaveLength(400);
    expect(s.requests).toHaveLength(5);
  });

  it("the default ceiling is 1000 pages, for `api --paginate` too, and the message says how to raise it", async () => {
    const s = await serve((req, res) => sendJson(res, { data: newRecords(pageOf(req.url!), 1) }));
    const r = await cli(s, ["api", "/v1/forever", "--paginate"]);
    failsInOneLine(r, /stopped at page 1000, the page ceiling; .*--max-pages 2000/);
    expect(s.requests).toHaveLength(1001);
    expect(JSON.parse(r.stdout)).toHaveLength(1000);
  });

  it("a page count of 1e9 over a server that repeats the same page: the walk stops at the first repeat", async () => {
    const s = await serve((_req, res) =>
      sendJson(res, {
        success: true,
        data: newRecords(1, 30),
        meta: { pagination: { page: 1, pageSize: 30, pageCount: 1e9, total: 3e10 } },
      }),
    );
    const r = await cli(s, ["market", "--chain", "base", "--concurrency", "1", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(30);
    expect(r.stderr).toMatch(/warning: page 2 of 1000000000 brought nothing new/);
    // Page 1, the repeat (page 2), and at most the one request scheduled beside it.
    expect(s.requests.length).toBeGreaterThanOrEqual(2);
    expect(s.requests.length).toBeLessThanOrEqual(3);

    const busy = await cli(s, ["market", "--chain", "base", "--ndjson"]); // default concurrency: window 8
    expect(busy.code).toBe(0);
    expect(ndjsonLines(busy.stdout)).toHaveLength(30);
    expect(s.requests.length).toBeLessThanOrEqual(3 + 9);
  });

  it("a page that brings nothing new ends the walk even after new pages (page count 1e9)", async () => {
    const s = await serve((req, res) =>
      sendJson(res, {
        success: true,
        data: newRecords(Math.min(3, pageOf(req.url!)), 30), // pages 1-3 new, then page 3 forever
        meta: { pagination: { pageSize: 30, pageCount: 1e9 } },
      }),
    );
    const r = await cli(s, ["market", "--chain", "base", "--concurrency", "1", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(90);
    expect(r.stderr).toMatch(/page 4 of 1000000000 brought nothing new/);
    expect(s.requests.length).toBeLessThanOrEqual(5);
  });

  it("pageSize 0 or -5 cannot make a walk endless", async () => {
    for (const pageSize of [0, -5]) {
      // New records on every page, and a page size that says nothing: the spec's 30 stands, so a
      // page of 5 is the last.
      const s = await serve((req, res) =>
        sendJson(res, {
          success: true,
          data: newRecords(pageOf(req.url!), 5),
          meta: { pagination: { pageSize } },
        }),
      );
      const r = await cli(s, ["market", "--chain", "base", "--json"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(5);
      expect(s.requests).toHaveLength(1);

      // The same with a page count of 1e9 and full new pages: the ceiling ends it, with nothing
      // requested past it even though the window would allow more.
      const t = await serve((req, res) =>
        sendJson(res, {
          success: true,
          data: newRecords(pageOf(req.url!), 30),
          meta: { pagination: { pageSize, pageCount: 1e9 } },
        }),
      );
      const c = await cli(t, ["market", "--chain", "base", "--max-pages", "4", "--json"]);
      failsInOneLine(c, /stopped at page 4 of 1000000000, the page ceiling/);
      expect(JSON.parse(c.stdout)).toHaveLength(120);
      expect(t.requests).toHaveLength(4);
    }
  });

  it("`api --paginate` against a server that ignores `page`: a page identical to the one before ends the walk", async () => {
    const withIds = await serve((_req, res) => sendJson(res, [{ id: 1 }, { id: 2 }]));
    const noIds = await serve((_req, res) => sendJson(res, { data: [{ name: "a" }, { name: "b" }] }));
    for (const s of [withIds, noIds]) {
      const r = await cli(s, ["--concurrency", "1", "api", "/v1/trending", "--paginate"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
      expect(s.requests.map((q) => pageOf(q.url))).toEqual([1, 2]);
      const nd = await cli(s, ["api", "/v1/trending", "--paginate", "--ndjson"]);
      expect(nd.code).toBe(0);
      expect(ndjsonLines(nd.stdout)).toHaveLength(2);
      expect(s.requests.length).toBeLessThanOrEqual(2 + 1 + 4);
    }
  });

  it("--max-pages is checked like every flag", async () => {
    const s = await serve((_req, res) => sendJson(res, { success: true, data: [] }));
    for (const bad of ["0", "-1", "1e9", "many"]) {
      const r = await cli(s, ["market", "--chain", "base", "--max-pages", bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd()).toMatch(
        /^tokenintel: --max-pages: expected a whole number of 1 or more, got "[^"]*"$/,
      );
    }
    const r = await cli(s, ["api", "/v1/x", "--max-pages", "5"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toBe("tokenintel: --max-pages goes with --paginate");
    expect(s.requests).toHaveLength(0);
  });
});

describe("deep JSON and long strings end cleanly", () => {
  const DEPTH = 100_000;
  const deepBody = `{"success":true,"data":[{"id":"deep","token_info":{"symbol":"DEEP"},"extra":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}]}`;

  it("JSON nested 100,000 levels deep is refused in one line, in every output format, and not retried", async () => {
    const s = await serve((_req, res) => sendJson(res, deepBody));
    let expected = 0;
    for (const format of ["json", "ndjson", "csv", "table"]) {
      const r = await cli(s, ["market", "--chain", "base", "-o", format]);
      failsInOneLine(r, /^tokenintel: HTTP 200: the server sent JSON nested deeper than 512 levels$/);
      expect(r.stdout).toBe("");
      expect(s.requests).toHaveLength(++expected);
    }
    for (const args of [["--paginate"], ["--paginate", "--ndjson"]]) {
      const r = await cli(s, ["api", "/v1/deep", ...args]);
      failsInOneLine(r, /the server sent JSON nested deeper than 512 levels$/);
    }
    // Without --paginate, `api` prints the body as sent, byte for byte: nothing walks it.
    const raw = await cli(s, ["api", "/v1/deep"]);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toBe(`${deepBody}\n`);
  });

  it("a 12 MB string is read as data (not 'invalid JSON') in every format, exact numbers kept digit for digit", async () => {
    const long = `${"a".repeat(6_000_000)}${'\\"q\\\\ \\u00e9'.repeat(600_000)}`; // JSON text of a string with escapes
    const mcap = "123456789012345678901234567890.123456789";
    const body = `{"success":true,"data":[{"id":"big","token_info":{"symbol":"BIG","description":"${long}"},"token_metrics":{"mcap":${mcap}}}]}`;
    expect(body.length).toBeGreaterThan(12_000_000);
    const s = await serve((_req, res) => sendJson(res, body));
    const description = JSON.parse(`"${long}"`) as string;

    const json = await cli(s, ["market", "--chain", "base", "--json"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
    const [record] = JSON.parse(json.stdout) as Array<{ token_info: { description: string } }>;
    expect(record!.token_info.description).toBe(description);
    expect(json.stdout).toContain(`"mcap": ${mcap}`);

    const nd = await cli(s, ["market", "--chain", "base", "--ndjson"]);
    expect(nd.code).toBe(0);
    expect(ndjsonLines(nd.stdout)).toHaveLength(1);
    expect(JSON.parse(nd.stdout).token_info.description).toBe(description);
    expect(nd.stdout).toContain(`"mcap":${mcap}`);

    const csv = await cli(s, ["market", "--chain", "base", "-o", "csv"]);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain(description.replace(/"/g, '""'));
    expect(csv.stdout).toContain(mcap);

    const table = await cli(s, ["market", "--chain", "base", "-o", "table"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("BIG");
  });
});
