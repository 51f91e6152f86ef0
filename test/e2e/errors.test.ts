import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { run } from "../commands/harness.js";
import { neverShown, useSandbox, useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";

// Errors as a user meets them, against the sandbox (a pipe: the built binary): usage errors exit 2
// before any request, the API's errors exit 1, 4 or 5 in one line without a stack trace, --verbose
// shows requests with the key redacted, and a reader that goes away (| head) ends the run quietly.

const KEY = `sk_live_${Math.random().toString(36).slice(2)}_do_not_print`;
const servers = useServers();
const freshDir = () => servers.folder();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const total = () => sandbox.stats.requests;

describe("usage errors: exit 2 before any request", () => {
  // The full list of usage errors runs in-process (test/commands/data/usage.test.ts); these two check
  // that the program turns a usage error into exit 2 and one line, for a command flag and a
  // global one.
  const cases: Array<[string, string[], RegExp]> = [
    ["unknown chain", ["market", "--chain", "eth"], /--chain: unknown chain "eth"/],
    [
      "bad timeout",
      ["--timeout", "soon", "market", "-c", "base"],
      /--timeout: expected a span such as 30s, 10m or 2h \(m is minutes\), got "soon"/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const before = total();
      const r = await run(["--base-url", sandbox.url, ...args], freshDir(), {
        env: { TOKENINTEL_API_KEY: KEY },
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^tokenintel: /);
      expect(total()).toBe(before);
    });
  }

  it("refuses to send a key over plain http to a host that is not loopback", async () => {
    const r = await run(["--base-url", "http://api.example.com", "market", "-c", "base"], freshDir(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to send the API key over http to api\.example\.com/);
  });

  it("a mistyped command suggests the closest one", async () => {
    const r = await run(["markte"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tokenintel: unknown command 'markte' (did you mean market?)\n");
  });
});

describe("API errors", () => {
  it("no key: exit 4 with a hint", async () => {
    const r = await run(["--base-url", sandbox.url, "market", "-c", "base"], freshDir());
    expect(r.code).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^tokenintel: no API key: run 'tokenintel auth login'.*--sandbox/);
  });

  it("a rejected key: exit 4 with the status and the server's message", async () => {
    const r = await run(
      ["--base-url", sandbox.url, "--api-key", "wrong-key-123456789", "market", "-c", "base"],
      freshDir(),
    );
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/the API key was rejected \(HTTP 401: Invalid API key\)/);
    expect(r.stderr).not.toContain("wrong-key-123456789");
  });

  it("the directory without a key: exit 5 naming the price", async () => {
    const r = await run(["--base-url", sandbox.url, "directory", "-c", "base"], freshDir());
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/payment required \(HTTP 402: 0\.005 USDC on Base per request\).*--pay/);
  });

  it("an error answer from the server: exit 1 with its message; a failed --json run prints nothing", async () => {
    const r = await run(
      ["--base-url", sandbox.url, "market", "-c", "base", "-e", "nonsense", "--json"],
      freshDir(),
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "tokenintel: HTTP 400: unsupported ecosystem 'nonsense' (supported: virtuals)",
    );
  });

  it("a failure after some pages: --json prints nothing, exit 1", async () => {
    // A server that answers page 1 and fails page 2 for good.
    const server = await servers.stub((req, res) => {
      const page = new URL(req.url ?? "/", "http://x").searchParams.get("page");
      if (page === "1") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            success: true,
            data: [{ id: "a" }],
            meta: { pagination: { page: 1, pageSize: 1, pageCount: 2, total: 2 } },
          }),
        );
      } else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ success: false, error: { message: "page vanished" } }));
      }
    });
    const url = server.url;
    const r = await run(["--base-url", url, "market", "-c", "base", "--json"], freshDir(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "tokenintel: HTTP 404: page vanished [page 2 of 2 failed: records from page 2 on are missing]",
    );
  });

  it("an unreachable server: exit 1, one line, no stack trace", async () => {
    const r = await run(
      ["--base-url", "http://127.0.0.1:9", "--retries", "0", "market", "-c", "base"],
      freshDir(),
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "tokenintel: connection refused by 127.0.0.1:9 (the base URL http://127.0.0.1:9 is from --base-url)",
    );
    // A stale setting is found at once: the message names where the address came from.
    const dir = freshDir();
    const fromEnv = await run(["--retries", "0", "market", "-c", "base"], dir, {
      env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(fromEnv.stderr).toContain("(the base URL http://127.0.0.1:9 is from TOKENINTEL_BASE_URL)");
    expect((await run(["config", "set", "base-url", "http://127.0.0.1:9"], dir)).code).toBe(0);
    const fromConfig = await run(["--retries", "0", "market", "-c", "base"], dir, {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(fromConfig.stderr.trim()).toBe(
      "tokenintel: connection refused by 127.0.0.1:9 (the base URL http://127.0.0.1:9 is from config base-url)",
    );
  });

  it("--verbose shows requests with the key redacted", async () => {
    const r = await run(
      ["--base-url", sandbox.url, "--verbose", "market", "-c", "base", "--limit", "1"],
      freshDir(),
      {
        env: { TOKENINTEL_API_KEY: KEY },
      },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /> GET http:\/\/127\.0\.0\.1:\d+\/v1\/crypto-market\/\?chain=base&page=1&api_key=\*\*\*/,
    );
    expect(r.stderr).toMatch(/< 200 \(\d+ ms, \d+ bytes\)/);
  });
});

describe("pipes", () => {
  it("| head -1 ends quietly", async () => {
    const home = freshDir();
    const r = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn(
        "bash",
        [
          "-o",
          "pipefail",
          "-c",
          `"${process.execPath}" "${BIN}" --base-url "${sandbox.url}" directory -c base --ndjson | head -1`,
        ],
        { env: { ...baseEnv(home), TOKENINTEL_API_KEY: KEY } },
      );
      let stderr = "";
      let stdout = "";
      child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
      child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
      child.on("close", (code) => resolve({ code, stderr, stdout }));
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
  });
});
