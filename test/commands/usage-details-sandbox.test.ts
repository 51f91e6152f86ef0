import { describe, expect, it } from "vitest";
import { neverShown, useSandbox, useServers } from "../e2e/fixtures.js";
import { run } from "./harness.js";

// Issue 12 item 16 ("Smaller"), run in-process through run(): a busy sandbox port, errors from
// TOKENINTEL_* variables, --timeout's unit, `help <command>`, bare command groups and `api -i`'s
// reason phrase. (Too-large numbers and --page with a list are usage errors, tested in-process:
// test/commands/usage-details.test.ts; `config list`'s sources and `config --help` on the timeout
// are in config-commands.test.ts and config-help.test.ts.)

const KEY = `sk_live_${Math.random().toString(36).slice(2)}_smaller`;
const WALLET = `0x${"5a".repeat(32)}`;
const servers = useServers();
const freshDir = () => servers.folder();
const sandbox = useSandbox({ apiKey: KEY });
neverShown(KEY);

/** A raw TCP server that answers every request with `head` (status line and headers) and `body`. */
const rawServer = (head: string, body: string): Promise<{ url: string }> =>
  servers.raw((socket) => {
    socket.once("data", () => {
      socket.end(
        Buffer.concat([
          Buffer.from(head, "latin1"),
          Buffer.from(`\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n`),
          Buffer.from(`connection: close\r\n\r\n${body}`),
        ]),
      );
    });
  });

describe("a: sandbox --port on a busy port", () => {
  it("is one line and exit 1, no stack trace", async () => {
    const { port } = await servers.raw();
    const r = await run(["sandbox", "--port", String(port)], freshDir());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `tokenintel: sandbox: 127.0.0.1:${port} is already in use; pick another --port, or --port 0 for a free one\n`,
    );
  });
});

describe("b: a bad value in a TOKENINTEL_* variable names the variable, not the flag", () => {
  const market = () => ["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"];
  const pay = () => [
    "--base-url",
    sandbox.url,
    "directory",
    "-c",
    "base",
    "--pay",
    "--dry-run",
    "--limit",
    "1",
  ];
  const cases: Array<[string, string, () => string[]]> = [
    ["TOKENINTEL_CHAIN", "eth", () => ["--base-url", sandbox.url, "market", "--tickers", "VIRTUAL"]],
    ["TOKENINTEL_BASE_URL", "not a url", () => ["market", "-c", "base", "--limit", "1"]],
    ["TOKENINTEL_OUTPUT", "xml", market],
    ["TOKENINTEL_TIMEOUT", "soon", market],
    ["TOKENINTEL_RETRIES", "many", market],
    ["TOKENINTEL_CACHE", "forever", market],
    ["TOKENINTEL_PAY_NETWORK", "ethereum", pay],
    ["TOKENINTEL_WALLET_KEY", "not-a-key", pay],
  ];
  for (const [variable, value, args] of cases) {
    it(`${variable}=${value}`, async () => {
      const before = sandbox.stats.requests;
      const r = await run(args(), freshDir(), {
        env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_WALLET_KEY: WALLET, [variable]: value },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^tokenintel: ${variable}\\b`));
      expect(r.stderr).not.toMatch(/--[a-z-]+:/);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(sandbox.stats.requests).toBe(before);
    });
  }

  it("the new variables work, and a flag wins over a bad variable", async () => {
    const env = {
      TOKENINTEL_API_KEY: KEY,
      TOKENINTEL_OUTPUT: "csv",
      TOKENINTEL_TIMEOUT: "5",
      TOKENINTEL_RETRIES: "0",
    };
    const csv = await run(["--base-url", sandbox.url, "market", "-c", "base", "--limit", "1"], freshDir(), {
      env,
    });
    expect(csv.code).toBe(0);
    expect(csv.stdout.split("\n")[0]).toMatch(/^[a-z_.]+(,[a-z_.0-9]+)+$/);
    const flagWins = await run(
      ["--base-url", sandbox.url, "--timeout", "5s", "market", "-c", "base", "--limit", "1", "--json"],
      freshDir(),
      { env: { TOKENINTEL_API_KEY: KEY, TOKENINTEL_TIMEOUT: "soon" } },
    );
    expect(flagWins.code).toBe(0);
  });
});

describe("d: --timeout without a unit is seconds, and the help says so", () => {
  it("tokenintel --help", async () => {
    const r = await run(["--help"], freshDir());
    const line = r.stdout.split("\n").findIndex((l) => l.includes("--timeout <duration>"));
    const text = r.stdout
      .split("\n")
      .slice(line, line + 3)
      .join(" ")
      .replace(/\s+/g, " ");
    expect(text).toMatch(
      /--timeout <duration> per-request timeout: 30s, 500ms, 2m, 1h, or a plain number of seconds/,
    );
  });
});

describe("f: help <command>", () => {
  it("help nope: unknown command, exit 2", async () => {
    const r = await run(["help", "nope"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "tokenintel: help: unknown command 'nope' (see 'tokenintel --help' for the commands)\n",
    );
  });
  it("help market is market --help", async () => {
    const r = await run(["help", "market"], freshDir());
    const direct = await run(["market", "--help"], freshDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: tokenintel market /);
    expect(r.stdout).toBe(direct.stdout);
  });
  it("help config set is config set --help, after global options too; help config nope is unknown", async () => {
    const r = await run(["--color", "never", "help", "config", "set"], freshDir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: tokenintel config set \[options\] <key> <value>/);
    const nope = await run(["help", "config", "nope"], freshDir());
    expect(nope.code).toBe(2);
    expect(nope.stderr).toBe(
      "tokenintel: help: unknown command 'config nope' (see 'tokenintel config --help')\n",
    );
  });
});

describe("g: a bare command group behaves like a bare tokenintel", () => {
  for (const group of ["config", "auth", "cache"]) {
    it(`${group}: its help on stdout, exit 0`, async () => {
      const r = await run([group], freshDir());
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(new RegExp(`^Usage: tokenintel ${group} \\[options\\] \\[command\\]`));
      expect(r.stdout).toBe((await run([group, "--help"], freshDir())).stdout);
    });
  }
  it("config nope: unknown command, exit 2, the group's commands named", async () => {
    const r = await run(["config", "nope"], freshDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "tokenintel: unknown command 'config nope' (config commands: get, set, unset, list, path)\n",
    );
  });
});

describe("h: api -i shows the reason phrase", () => {
  it("the standard phrase from the sandbox", async () => {
    const r = await run(["--base-url", sandbox.url, "api", "/v1/nope", "-i"], freshDir(), {
      env: { TOKENINTEL_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe("HTTP/1.1 404 Not Found");
  });
  it("a server's own phrase, made inert: no escapes, printable ASCII only, bounded", async () => {
    const { url } = await rawServer(
      "HTTP/1.1 404 Gone \x1b]0;pwned\x07\x1b[31mfishing\x9b2J\x80\xff",
      '{"success":false}',
    );
    {
      const r = await run(["--base-url", url, "--retries", "0", "api", "/v1/x", "-i"], freshDir());
      expect(r.code).toBe(1);
      expect(r.stderr.split("\n")[0]).toBe("HTTP/1.1 404 Gone fishing2J");
      expect(r.stderr).not.toMatch(/[^\n\x20-\x7e]/);
    }
    const long = await rawServer(`HTTP/1.1 200 ${"A".repeat(500)}`, '{"success":true}');
    {
      const r = await run(["--base-url", long.url, "api", "/v1/x", "-i"], freshDir());
      expect(r.code).toBe(0);
      expect(r.stderr.split("\n")[0]).toBe(`HTTP/1.1 200 ${"A".repeat(64)}…`);
    }
  });
});
