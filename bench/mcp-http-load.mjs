// The load of npm run bench on `tokenintel mcp --http`: makes a token, starts `node <bin> --base-url
// <url> --api-key <key> mcp --http 127.0.0.1:0`, then eight rounds of 30 clients at once (the MCP
// SDK's Streamable HTTP client, half pinned to 2026-07-28, half in 2025 sessions), 5 market calls
// each. Prints, as JSON, each round's wall time in ms, the calls' latency (median and 99th
// percentile, ms) and the server's resident memory after it, and its peak (MB, from /proc); exits 1 when a
// call fails. Then SIGTERM, and the server's exit code must be 0.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const [node, bin, url, key] = process.argv.slice(2);
/** Rounds of 30 clients: enough for the server's memory to settle where it stays. */
const ROUNDS = 8;
// Its own folders: the token made here is this run's alone.
const folder = mkdtempSync(join(tmpdir(), "tokenintel-bench-http-"));
process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
const env = { ...process.env, TOKENINTEL_CONFIG_DIR: join(folder, "config"), TOKENINTEL_DATA_DIR: join(folder, "data") };
const added = spawnSync(node, [bin, "mcp", "tokens", "add", "bench"], { env, encoding: "utf8" });
if (added.status !== 0) throw new Error(`tokens add failed: ${added.stderr}`);
const token = added.stdout.trim();
const server = spawn(
  node,
  [bin, "--base-url", url, "--api-key", key, "mcp", "--http", "127.0.0.1:0", "--token-rate", "100000/min"],
  { env, stdio: ["ignore", "ignore", "pipe"] },
);
let stderr = "";
const mcp = await new Promise((resolve, reject) => {
  server.stderr.setEncoding("utf8").on("data", (d) => {
    stderr += d;
    const m = /^listening (\S+)$/m.exec(stderr);
    if (m) resolve(m[1]);
  });
  server.once("exit", (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
});
const memory = (field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]) /
  1024;

async function connect(i) {
  const mode = i % 2 ? "legacy" : { pin: "2026-07-28" };
  const client = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode } });
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp), { requestInit }));
  return client;
}

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  const clients = await Promise.all(Array.from({ length: 30 }, (_, i) => connect(i)));
  const latencies = [];
  const t0 = performance.now();
  await Promise.all(
    clients.flatMap((client) =>
      Array.from({ length: 5 }, async () => {
        const started = performance.now();
        const r = await client.callTool({ name: "market", arguments: { chain: "base", tickers: ["VIRTUAL"] } });
        if (r.isError) throw new Error(`a call failed: ${JSON.stringify(r.content)}`);
        latencies.push(performance.now() - started);
      }),
    ),
  );
  rounds.push({
    ms: performance.now() - t0,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    rssMb: memory("VmRSS"),
  });
  await Promise.all(clients.map((c) => c.transport.terminateSession().then(() => c.close())));
}
const peakMb = memory("VmHWM");
const lastMb = memory("VmRSS");
server.kill("SIGTERM");
const code = await new Promise((resolve) => server.once("exit", resolve));
if (code !== 0) throw new Error(`the server exited ${code} on SIGTERM: ${stderr}`);
process.stdout.write(`${JSON.stringify({ rounds, peakMb, lastMb })}\n`);
