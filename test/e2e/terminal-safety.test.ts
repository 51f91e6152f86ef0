import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../commands/harness.js";
import { useServers } from "./fixtures.js";
import { BIN, baseEnv, type RunResult } from "./helpers.js";
import { type HostileServer, sendJson } from "./hostile-server.js";
import { commandLine, launchPty } from "./terminal-session.js";

// What reaches the terminal, the key in every encoding, a full disk on stdout, and numbers in
// exponent form. Every server here is hostile. (The config store's files are tested in
// test/commands/config/config-errors.test.ts and test/e2e/config/config-store.test.ts.)

const servers = useServers();
const dir = { path: servers.folder() };
let n = 0;
/** A fresh config folder for one run. */
const fresh = () => {
  const path = join(dir.path, `home-${n++}`);
  mkdirSync(path, { mode: 0o700 });
  return path;
};

/** A market page whose token is named with every terminal attack in the issue. */
const HOSTILE_NAME =
  "Evil\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned-title\x07\x1b[2J\x1b]8;;http://evil.invalid/\x07click\x1b]8;;\x07\u009b31mred\u202egnp.exe";
const HOSTILE_SYMBOL = "EV\u009b2J\u202eIL";

function marketRecord(id: string, name: string, symbol: string, metrics = '"usd_price":"1.25"'): string {
  return `{"id":"${id}","token_info":{"id":"${id}","symbol":${JSON.stringify(symbol)},"name":${JSON.stringify(name)},"chain":"base","ecosystem":"virtuals"},"token_metrics":{${metrics}}}`;
}
function marketPage(records: string[]): string {
  return `{"success":true,"data":[${records.join(",")}],"meta":{"pagination":{"page":1,"pageSize":30,"pageCount":1,"total":${records.length}}}}`;
}
const HOSTILE_PAGE = marketPage([marketRecord("t1", HOSTILE_NAME, HOSTILE_SYMBOL)]);

/** What must never reach a terminal: OSC (52, 0, 8), CSI 2J, BEL, 8-bit CSI, bidi overrides. */
function expectInert(screen: string): void {
  expect(screen).not.toContain("\x1b]");
  expect(screen).not.toContain("\x1b[2J");
  expect(screen).not.toContain("\x07");
  expect(screen).not.toContain("\u009b");
  expect(screen).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
}

/** The screen without the colours JSON is shown in on a terminal (keys, strings, numbers, literals). */
const uncoloured = (screen: string) => screen.replace(/\x1b\[(?:0|1;34|32|33|36|90)m/g, "");

/** Runs the binary in a real pseudo-terminal (util-linux `script`); resolves with what it showed. */
async function inPty(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; screen: string }> {
  const pty = launchPty(
    commandLine(args),
    { ...baseEnv(fresh()), COLUMNS: "200", LINES: "40", TERM: "xterm-256color", ...env },
    20_000,
  );
  pty.child.stdin.end();
  return { code: await pty.exited, screen: pty.screen() };
}

describe("nothing from the server acts on the terminal", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await servers.stub((req, res) => {
      if (req.url?.startsWith("/v1/fail")) {
        sendJson(res, { message: `boom ${HOSTILE_NAME}` }, 400);
        return;
      }
      sendJson(res, HOSTILE_PAGE);
    });
  });
  const against = () => ["--base-url", server.url, "--api-key", "key-for-terminal-tests"];

  for (const format of ["json", "ndjson", "csv", "table"]) {
    it(`${format} on a terminal: no escape sequence, C1 or bidi control reaches it`, async () => {
      const r = await inPty([...against(), "market", "-c", "base", "-o", format]);
      expect(r.code).toBe(0);
      expect(r.screen).toContain("Evil");
      expectInert(r.screen);
      if (format === "json" || format === "ndjson") {
        // Still exact JSON: the escapes mean the very same strings.
        const text = uncoloured(r.screen).replace(/\r\n/g, "\n").trim();
        const doc = format === "json" ? JSON.parse(text)[0] : JSON.parse(text.split("\n")[0]!);
        expect(doc.token_info.name).toBe(HOSTILE_NAME);
        expect(doc.token_info.symbol).toBe(HOSTILE_SYMBOL);
        expect(text).toContain("\\u009b");
        expect(text).toContain("\\u202e");
      }
    });
  }

  it("api on a terminal: the body is made inert and stays the same JSON", async () => {
    const r = await inPty([...against(), "api", "/v1/crypto-market/", "-f", "chain=base"]);
    expect(r.code).toBe(0);
    expectInert(r.screen);
    expect(JSON.parse(uncoloured(r.screen).replace(/\r\n/g, "\n"))).toEqual(JSON.parse(HOSTILE_PAGE));
  });

  it("--verbose: the error and its stack, built from the server's message, are inert", async () => {
    const r = await inPty([...against(), "-v", "--retries", "0", "api", "/v1/fail"]);
    expect(r.code).toBe(1);
    expect(r.screen).toMatch(/tokenintel: HTTP 400: boom Evil/);
    expect(r.screen).toMatch(/ApiError: HTTP 400: boom Evil[^\n]*\r?\n\s+at /);
    expectInert(r.screen);
  });

  it("piped, every format and api keep the server's bytes exactly", async () => {
    const home = fresh();
    for (const format of ["json", "ndjson", "csv"]) {
      const r = await run([...against(), "market", "-c", "base", "-o", format], home);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(format === "csv" ? HOSTILE_NAME.replace(/"/g, '""') : "\u009b31mred\u202e");
      if (format !== "csv") expect(r.stdout).toContain("\\u001b]52;c;cHduZWQ=\\u0007");
    }
    const api = await run([...against(), "api", "/v1/crypto-market/", "-f", "chain=base"], home);
    expect(api.code).toBe(0);
    expect(api.stdout).toBe(`${HOSTILE_PAGE}\n`);
  });
});

describe("the key is redacted in every form it can take", () => {
  const KEY = "k+y/with=amp&and space/Z9";
  const uri = encodeURIComponent(KEY);
  const lowerHex = uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  const form = new URLSearchParams({ k: KEY }).toString().slice(2);
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const b64url = (s: string) => Buffer.from(s).toString("base64url");
  const FORMS = [KEY, uri, lowerHex, form, b64(KEY), b64url(KEY), b64(uri), b64url(uri), b64(form)];
  // Inside a longer base64 string, at an offset that is not a multiple of three.
  const embedded = b64(`token=${KEY};`);
  // And split by a control character, which stripping it for the terminal would join again.
  const HEADER_ECHO = `${FORMS.join(" | ")} | ${embedded}`;
  const ECHO = `${KEY.slice(0, 6)}\x1b${KEY.slice(6)} | ${HEADER_ECHO}`;
  const leaked = (text: string) =>
    [...FORMS, embedded.slice(8, -8), KEY.slice(0, 9), "with=amp"].filter((f) => text.includes(f));

  let server: HostileServer;
  beforeAll(async () => {
    server = await servers.stub((req, res) => {
      const url = req.url ?? "";
      if (url.startsWith("/v1/error")) sendJson(res, { message: `bad key: ${ECHO}` }, 400);
      else if (url.startsWith("/v1/redirect")) {
        const q = FORMS.map((f, i) => `e${i}=${encodeURIComponent(f)}&r${i}=${f}`).join("&");
        res.writeHead(302, { location: `/v1/landed?${q}` });
        res.end();
      } else if (url.startsWith("/v1/header")) sendJson(res, { ok: true }, 200, { "x-echo": HEADER_ECHO });
      else if (url.startsWith("/v1/body")) sendJson(res, { echo: ECHO });
      else if (url.startsWith("/v1/crypto-market"))
        sendJson(res, marketPage([marketRecord("k1", `name ${ECHO}`, "KEY")]));
      else sendJson(res, { ok: true });
    });
  });
  const env = () => ({ TOKENINTEL_API_KEY: KEY });
  const check = (r: RunResult) => {
    expect(leaked(r.stderr)).toEqual([]);
    expect(leaked(r.stdout)).toEqual([]);
    expect(r.stderr).toContain("***");
  };

  it("in an error message, with --verbose and its stack", async () => {
    const plain = await run(["--base-url", server.url, "--retries", "0", "api", "/v1/error"], fresh(), {
      env: env(),
    });
    expect(plain.code).toBe(1);
    check(plain);
    const verbose = await run(
      ["--base-url", server.url, "--retries", "0", "-v", "api", "/v1/error"],
      fresh(),
      {
        env: env(),
      },
    );
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/\n\s+at /); // the stack was shown
    check(verbose);
  });

  it("in a redirect's Location, logged by --verbose", async () => {
    const r = await run(["--base-url", server.url, "-v", "api", "/v1/redirect"], fresh(), { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> GET .*\/v1\/landed\?e0=\*\*\*/);
    check(r);
  });

  it("on stdout too: in an api body and in records, whatever the format", async () => {
    const api = await run(["--base-url", server.url, "api", "/v1/body"], fresh(), { env: env() });
    expect(api.code).toBe(0);
    expect(leaked(api.stdout)).toEqual([]);
    expect(api.stdout).toContain("***");
    for (const format of ["json", "ndjson", "csv", "table"]) {
      const r = await run(["--base-url", server.url, "market", "-c", "base", "-o", format], fresh(), {
        env: env(),
      });
      expect(r.code).toBe(0);
      expect(leaked(r.stdout)).toEqual([]);
      expect(r.stdout).toContain("| ***");
    }
  });

  it("in a header shown by api -i", async () => {
    const r = await run(["--base-url", server.url, "api", "-i", "/v1/header"], fresh(), { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/x-echo: \*\*\*/);
    check(r);
  });
});

/** Runs the binary with stdout on /dev/full. */
function runToFullDisk(args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    const full = openSync("/dev/full", "w");
    const child = spawn(process.execPath, [BIN, ...args], {
      env: baseEnv(fresh()),
      stdio: ["pipe", full, "pipe"],
    });
    closeSync(full);
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("close", (code, signal) => resolve({ code, signal, stdout: "", stderr }));
    child.stdin?.end();
  });
}

describe("a full disk on stdout", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await servers.stub((_req, res) => sendJson(res, HOSTILE_PAGE));
  });

  for (const args of [
    ["market", "-c", "base", "-o", "table"],
    ["market", "-c", "base", "-o", "json"],
    ["market", "-c", "base", "-o", "ndjson"],
    ["market", "-c", "base", "-o", "csv"],
    ["api", "/v1/crypto-market/"],
  ]) {
    it(`ends in one line and exit 1: ${args.join(" ")}`, async () => {
      const r = await runToFullDisk(["--base-url", server.url, "--api-key", "key-for-full-disk", ...args]);
      expect(r.stderr).toBe("tokenintel: could not write the output: no space left on device (ENOSPC)\n");
      expect(r.code).toBe(1);
    });
  }
});

describe("numbers in exponent form in a table", () => {
  let server: HostileServer;
  beforeAll(async () => {
    const metrics = [
      '"usd_price":"1.5e-07"',
      '"mcap":2.5e+06',
      '"volume_24h":1e400',
      '"total_liquidity":"-3E-2"',
      '"price_change_percentage_1h":-3E-2',
      '"price_change_percentage_24h":"2.5e+06"',
      '"price_change_percentage_7d":1e400',
    ].join(",");
    const second = '"usd_price":2.5e+06,"mcap":"1e400","price_change_percentage_1h":"1.5e-07"';
    server = await servers.stub((_req, res) =>
      sendJson(
        res,
        marketPage([
          marketRecord("e1", "Exp One", "EXPA", metrics),
          marketRecord("e2", "Exp Two", "EXPB", second),
        ]),
      ),
    );
  });

  it("formats them from their digits: never 0, Infinity or NaN", async () => {
    const r = await run(
      ["--base-url", server.url, "--api-key", "key-for-numbers", "market", "-c", "base", "-o", "table"],
      fresh(),
      {
        env: { COLUMNS: "250" },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/Infinity|NaN/);
    const [header, one, two] = r.stdout.split("\n").map((l) => l.trim().split(/\s{2,}/));
    const cell = (row: string[] | undefined, name: string) => row?.[header!.indexOf(name)];
    expect(cell(one, "PRICE")).toBe("0.0₆1500");
    expect(cell(one, "MCAP")).toBe("$2.50M");
    expect(cell(one, "VOL 24H")).toBe("$1e+400");
    expect(cell(one, "LIQ")).toBe("-$0.03");
    expect(cell(one, "1H")).toBe("-0.03%");
    expect(cell(one, "24H")).toBe("+2500000.00%");
    expect(cell(one, "7D")).toBe("+1e+400%");
    expect(cell(two, "PRICE")).toBe("2,500,000.00");
    expect(cell(two, "MCAP")).toBe("$1e+400");
    expect(cell(two, "1H")).toBe("0.00%");
  });
});
