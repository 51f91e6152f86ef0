import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { useServers } from "../fixtures.js";
import { BIN, baseEnv, run } from "../helpers.js";

// `tokenintel mcp --http` as a process, the built binary: SIGTERM while a call runs (the call
// answers, the process exits 0), a second SIGTERM ending it at once, and its memory under 30
// clients at once, in a bounded heap. Its behaviour is tested in-process in
// test/commands/mcp/mcp-http*.test.ts.

const KEY = `sk_test_${Math.random().toString(36).slice(2)}_e2e_http`;
const servers = useServers();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

interface Serving {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The binary serving over HTTP against a sandbox whose answers take `latencyMs`, and a token for it. */
async function serve(
  latencyMs: number,
  extra: string[] = [],
  node: string[] = [],
): Promise<Serving & { token: string }> {
  const folder = servers.folder();
  const added = await run(["mcp", "tokens", "add", "e2e"], folder);
  expect(added.code, added.stderr).toBe(0);
  const api = await servers.sandbox({ apiKey: KEY, latencyMs });
  const child = spawn(
    process.execPath,
    [...node, BIN, "--base-url", api.url, "mcp", "--http", "0", ...extra],
    {
      env: { ...baseEnv(folder), TOKENINTEL_API_KEY: KEY },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  children.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 15_000;
  while (!/^listening /m.test(stderr) && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  const url = /^listening (\S+)$/m.exec(stderr)?.[1];
  if (!url) throw new Error(`did not start: ${stderr}`);
  return { child, url, stderr: () => stderr, exited, token: added.stdout.trim() };
}

async function connect(url: string, token: string, mode: "legacy" | { pin: string } = { pin: "2026-07-28" }) {
  const client = new Client({ name: "e2e", version: "1" }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const marketCall = { name: "market", arguments: { chain: "base", tickers: ["VIRTUAL"] } };

describe("tokenintel mcp --http: its life as a process", () => {
  it("SIGTERM during a call: the call answers, the process exits 0", async () => {
    const { child, url, token, exited, stderr } = await serve(1_000);
    const client = await connect(url, token);
    const call = client.callTool(marketCall);
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGTERM");
    const answer = await call;
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr()).toMatch(/"token":"e2e","tool":"market","status":"ok"/);
    expect(stderr()).not.toContain(token);
  });

  it("a second SIGTERM while calls finish ends it at once (143)", async () => {
    const { child, url, token, exited } = await serve(8_000);
    const client = await connect(url, token, "legacy");
    void client.callTool(marketCall).catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 200));
    child.kill("SIGTERM");
    expect((await exited).code).toBe(143);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("30 clients at once, 5 calls each, three rounds: every call answered, in a 64 MB heap, under 256 MB", async () => {
    // Its heap bounded below what 450 calls' state would take: what a call leaves behind ends the
    // process. (That nothing is kept is measured in-process, in test/commands/mcp/mcp-http-life.test.ts.)
    const { child, url, token } = await serve(0, ["--token-rate", "100000/min"], ["--max-old-space-size=64"]);
    for (let round = 0; round < 3; round++) {
      const clients = await Promise.all(
        Array.from({ length: 30 }, (_, i) => connect(url, token, i % 2 ? "legacy" : { pin: "2026-07-28" })),
      );
      const answers = await Promise.all(
        clients.flatMap((c) => Array.from({ length: 5 }, () => c.callTool(marketCall))),
      );
      expect(answers.filter((a) => !a.isError)).toHaveLength(150);
      // A 2025 client ends its session (DELETE); the 2026-07-28 ones hold none.
      await Promise.all(
        clients.map((c) => (c.transport as StreamableHTTPClientTransport).terminateSession()),
      );
      await Promise.all(clients.map((c) => c.close()));
    }
    expect(child.exitCode).toBeNull();
    const peak = Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]);
    expect(peak).toBeLessThan(256 * 1024);
  });
});
