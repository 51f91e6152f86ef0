import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../commands/harness.js";
import { neverShown, useSandbox, useServers } from "./fixtures.js";
import { BIN, baseEnv } from "./helpers.js";

const KEY = `sk_live_${Math.random().toString(36).slice(2)}_do_not_print`;
const servers = useServers();
const freshDir = () => servers.folder();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

const total = () => sandbox.stats.requests;

describe("usage errors: exit 2 before any request", () => {
  // The full list of usage errors runs in-process (test/commands/usage.test.ts); these two check
  // that the program turns a usage error into exit 2 and one line, for a command flag and a
  // global one.
  const cases: Array<[string, string[], RegExp]> = [
    ["unknown chain", ["market", "--chain", "eth"], /--chain: unknown chain "eth"/],
    [
      "bad timeout",
      ["--timeout", "soon", "market", "-c", "base"],
      /--timeout: expected a span such as 30s, 10m, 2h, 7d, 2w, 6mo or 1y \(m is minutes, mo months\), got "soon"/,
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

describe("auth and the key's store", () => {
  it("auth login --with-token stores the key 0600 in a 0700 folder; status masks it; logout removes it", async () => {
    const home = freshDir();
    const cfg = join(home, "cfg");
    const env = { TOKENINTEL_CONFIG_DIR: cfg };
    const login = await run(["--base-url", sandbox.url, "auth", "login", "--with-token"], home, {
      env,
      input: `${KEY}\n`,
    });
    expect(login.code).toBe(0);
    const file = join(cfg, "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8")).apiKey).toBe(KEY);

    const status = await run(["--base-url", sandbox.url, "auth", "status"], home, { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`API key: ${KEY.slice(0, 4)}…${KEY.slice(-4)}`);
    expect(status.stdout).toMatch(/Source:\s+the config store/);

    const fromStore = await run(["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"], home, {
      env,
    });
    expect(fromStore.code).toBe(0);

    const logout = await run(["auth", "logout"], home, { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).apiKey).toBeUndefined();
    const after = await run(["auth", "status"], home, { env });
    expect(after.code).toBe(4);
  });

  it("auth login refuses to run without a terminal or --with-token", async () => {
    const r = await run(["auth", "login"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-token/);
  });

  it("auth status warns when the config file is readable by others", async () => {
    const home = freshDir();
    await run(["auth", "login", "--with-token", "--no-verify"], home, { input: KEY });
    const { chmodSync } = await import("node:fs");
    chmodSync(join(home, "config.json"), 0o644);
    const r = await run(["--base-url", sandbox.url, "auth", "status"], home);
    expect(r.stderr).toMatch(/readable by others \(mode 0644\)/);
  });
});

describe("the sandbox", () => {
  it("--sandbox runs a data command on a fresh machine with no key and no network", async () => {
    const r = await run(
      ["market", "--sandbox", "--chain", "base", "--ecosystem", "virtuals", "--limit", "3", "--json"],
      freshDir(),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });

  it("tokenintel sandbox prints its URL and demo key, serves requests, and stops on Ctrl-C", async () => {
    const home = freshDir();
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0"], { env: baseEnv(home) });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        const m = /url: (\S+)\napi key: (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", () => reject(new Error(`sandbox exited: ${out}`)));
    });
    const key = /api key: (\S+)/.exec(out)![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await run(
      ["--base-url", url, "--api-key", key, "agents", "-c", "base", "--limit", "2", "--json"],
      home,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", (c) => resolve(c));
      child.kill("SIGINT");
    });
    expect(code).toBe(130);
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
