import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../../e2e/fixtures.js";
import { type HostileServer, sendJson } from "../../e2e/hostile-server.js";
import { run } from "../harness.js";

// `auth status` asks the service whether it takes the key (exit 4 when it says
// no, like `gh auth status`); `auth login` asks before it stores one (--no-verify: offline). A
// network failure is no verdict: exit 1, never 4.

const KEY = `sk_live_${Math.random().toString(36).slice(2)}_auth_check`;
const WRONG = `sk_wrong_${Math.random().toString(36).slice(2)}_auth_check`;
const servers = useServers();
const freshDir = () => servers.folder();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY, WRONG);
const storedKey = (dir: string): unknown => {
  const file = join(dir, "config.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).apiKey : undefined;
};

/** A loopback port nothing listens on (bound, then closed). */
async function deadPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 9}`;
}

describe("auth status checks the key with the service", () => {
  it("a key the service takes: exit 0, one free request, key masked", async () => {
    const before = sandbox.stats.requests;
    const r = await run(["--base-url", sandbox.url, "auth", "status"], freshDir(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^API key: sk_l…heck\nSource: {2}the environment \(TOKENINTEL_API_KEY\)\n/);
    expect(r.stdout).toContain(`Status:  accepted by ${sandbox.url}`);
    expect(sandbox.stats.requests - before).toBe(1);
    expect(sandbox.stats.payments.accepted).toBe(0);
  });

  it("a key the service rejects: exit 4, one line, the status lines still printed", async () => {
    const r = await run(["--base-url", sandbox.url, "--api-key", WRONG, "auth", "status"], freshDir());
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^API key: sk_w…heck\nSource: {2}the --api-key flag\n$/);
    expect(r.stderr).toBe(
      `tokenintel: the API key was rejected by ${sandbox.url} (HTTP 401: Invalid API key)\n`,
    );
  });

  it("--sandbox checks the sandbox's demo key against the sandbox", async () => {
    const r = await run(["--sandbox", "auth", "status"], freshDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Status:  accepted by the sandbox");
    const wrong = await run(["--sandbox", "--api-key", WRONG, "auth", "status"], freshDir());
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/^tokenintel: the API key was rejected by the sandbox/);
  });

  it("an unreachable server is no verdict: exit 1, not 4, and the status lines still print", async () => {
    const url = await deadPort();
    const r = await run(["--base-url", url, "--retries", "0", "auth", "status"], freshDir(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^API key: sk_l…heck\nSource: /);
    expect(r.stderr).toBe(
      `tokenintel: the API key could not be checked against ${url}: connection refused by ${new URL(url).host} (the base URL ${url} is from --base-url)\n`,
    );
  });

  describe("against a server that misbehaves", () => {
    let hostile: HostileServer;
    let answer: (path: string) => { status: number; body: unknown };
    beforeAll(async () => {
      hostile = await servers.stub((req, res) => {
        const { status, body } = answer(req.url ?? "");
        sendJson(res, body, status);
      });
    });

    it("a 5xx is no verdict (exit 1)", async () => {
      answer = () => ({ status: 500, body: { success: false, message: "down" } });
      const r = await run(["--base-url", hostile.url, "--retries", "0", "auth", "status"], freshDir(), {
        env: { TOKENINTEL_API_KEY: KEY },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^tokenintel: the API key could not be checked against .*: HTTP 500: down\n$/);
    });

    it("a 402 means the key buys nothing free: exit 4, nothing paid even with a wallet at hand", async () => {
      answer = () => ({
        status: 402,
        body: {
          x402Version: 1,
          error: "X-PAYMENT header is required",
          accepts: [
            {
              scheme: "exact",
              network: "base",
              maxAmountRequired: "5000",
              resource: `${hostile.url}/v1/crypto-market/`,
              payTo: "0x5a1db0000000000000000000000000000000beef",
              asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
              maxTimeoutSeconds: 60,
              extra: { name: "USD Coin", version: "2" },
            },
          ],
        },
      });
      const seen = hostile.requests.length;
      const r = await run(["--base-url", hostile.url, "auth", "status"], freshDir(), {
        env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_WALLET_KEY: `0x${"5a".repeat(32)}` },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(
        /^tokenintel: the API key was rejected by .*\(HTTP 402: .*nothing was paid\)\n$/,
      );
      const sent = hostile.requests.slice(seen);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.url).toMatch(/^\/v1\/crypto-market\/\?chain=base&token_tickers=VIRTUAL&api_key=/);
      expect(Object.keys(sent[0]!.headers).filter((h) => /payment|x-payment/i.test(h))).toEqual([]);
    });

    it("the server's words in a 401 reach the terminal inert", async () => {
      answer = () => ({ status: 401, body: { message: "bad key \u001b]0;pwned\u0007\u001b[31mred" } });
      const r = await run(["--base-url", hostile.url, "auth", "status"], freshDir(), {
        env: { TOKENINTEL_API_KEY: KEY },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      expect(r.stderr).toMatch(/\(HTTP 401: bad key red\)\n$/);
    });
  });
});

describe("auth login checks the key before it stores it", () => {
  it("a rejected key is not stored: exit 4, one line", async () => {
    const home = freshDir();
    const r = await run(["--base-url", sandbox.url, "auth", "login", "--with-token"], home, {
      input: `${WRONG}\n`,
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      `tokenintel: the key was rejected by ${sandbox.url} (HTTP 401: Invalid API key); nothing saved\n`,
    );
    expect(storedKey(home)).toBeUndefined();
  });

  it("an accepted key is stored", async () => {
    const home = freshDir();
    const r = await run(["--base-url", sandbox.url, "auth", "login", "--with-token"], home, {
      input: `${KEY}\n`,
    });
    expect(r.code).toBe(0);
    expect(storedKey(home)).toBe(KEY);
  });

  it("an unreachable server stores nothing (exit 1); --no-verify stores it without a request", async () => {
    const url = await deadPort();
    const home = freshDir();
    const r = await run(["--base-url", url, "--retries", "0", "auth", "login", "--with-token"], home, {
      input: KEY,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /could not be checked .*connection refused by 127\.0\.0\.1:\d+ \(the base URL .* is from --base-url\); nothing saved \(--no-verify/,
    );
    expect(storedKey(home)).toBeUndefined();

    const offline = await run(["--base-url", url, "auth", "login", "--with-token", "--no-verify"], home, {
      input: KEY,
    });
    expect(offline.code).toBe(0);
    expect(storedKey(home)).toBe(KEY);
  });
});
