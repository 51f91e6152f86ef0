// The MCP client of npm run bench: starts `node <args>` (tokenintel mcp), sends `initialize` and,
// once answered, `tools/list`; prints, as JSON, the milliseconds from the start to each answer (the
// second is the time to a usable tool list), and the sizes of the tool list: the whole tools/list
// message, and its tools without their output schemas (names, descriptions and input schemas). With BENCH_MCP_CALLS=1 it then calls every tool with
// the arguments an agent would give first and records the size of each answer's structured content
// and of the whole message, in bytes. Then it closes stdin and waits for the end.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const [node, ...args] = process.argv.slice(2);
const CALLS = {
  market: { chain: "base" },
  directory: { chain: "base" },
  agents: { chain: "base" },
  ta: { chain: "base" },
  trending: { chain: "base" },
  smart_money: { tickers: ["VIRTUAL"] },
  staking: { tickers: ["VIRTUAL"] },
  check: { chain: "base", tickers: ["VIRTUAL"] },
  history: { chain: "base", tickers: ["VIRTUAL"] },
  ask: { question: "how is $VIRTUAL doing?", chain: "base" },
};
const frame = (message) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
const t0 = performance.now();
const child = spawn(node, args, { stdio: ["pipe", "pipe", "ignore"] });
const times = {};
const sizes = {};
const list = {};
const names = process.env.BENCH_MCP_CALLS === "1" ? Object.keys(CALLS) : [];
let buffered = "";
const callNext = (i) => {
  if (i >= names.length) return child.stdin.end();
  child.stdin.write(frame({ id: 100 + i, method: "tools/call", params: { name: names[i], arguments: CALLS[names[i]] } }));
};
child.stdout.setEncoding("utf8").on("data", (chunk) => {
  buffered += chunk;
  for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
    const line = buffered.slice(0, nl);
    const message = JSON.parse(line);
    buffered = buffered.slice(nl + 1);
    if (message.id === 1) {
      times.initialize = performance.now() - t0;
      child.stdin.write(frame({ method: "notifications/initialized" }));
      child.stdin.write(frame({ id: 2, method: "tools/list" }));
    } else if (message.id === 2) {
      times.tools = performance.now() - t0;
      list.bytes = Buffer.byteLength(line);
      list.inputs = Buffer.byteLength(JSON.stringify(message.result.tools.map(({ outputSchema, ...rest }) => rest)));
      callNext(0);
    } else if (message.id >= 100) {
      const i = message.id - 100;
      if (message.result?.isError) {
        process.stderr.write(`${names[i]}: ${JSON.stringify(message.result.content)}\n`);
        process.exit(1);
      }
      sizes[names[i]] = {
        structured: Buffer.byteLength(JSON.stringify(message.result.structuredContent)),
        message: Buffer.byteLength(line),
      };
      callNext(i + 1);
    }
  }
});
child.on("exit", (code) => {
  if (code !== 0 || times.tools === undefined) {
    process.stderr.write(`tokenintel mcp exited ${code} before answering\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ ...times, sizes, list })}\n`);
});
child.stdin.write(
  frame({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  }),
);
