// The MCP client of npm run bench: starts `node <args>` (tokenintel mcp), sends `initialize`, and
// prints, as JSON, the milliseconds from the start to the answer to initialize, and to the answer
// to the `tools/list` sent after it (the server fully up); then closes stdin and waits for the end.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const [node, ...args] = process.argv.slice(2);
const frame = (message) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
const t0 = performance.now();
const child = spawn(node, args, { stdio: ["pipe", "pipe", "ignore"] });
const times = {};
let buffered = "";
child.stdout.setEncoding("utf8").on("data", (chunk) => {
  buffered += chunk;
  for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
    const message = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    if (message.id === 1) {
      times.initialize = performance.now() - t0;
      child.stdin.write(frame({ method: "notifications/initialized" }));
      child.stdin.write(frame({ id: 2, method: "tools/list" }));
    } else if (message.id === 2) {
      times.tools = performance.now() - t0;
      child.stdin.end();
    }
  }
});
child.on("exit", (code) => {
  if (code !== 0 || times.tools === undefined) {
    process.stderr.write(`tokenintel mcp exited ${code} before answering\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(times)}\n`);
});
child.stdin.write(
  frame({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  }),
);
