import { readFileSync } from "node:fs";
import { writeOutSync } from "../../files/stdout.js";

// dist/mcp-early.cjs: `tokenintel mcp` answers its client's `initialize` before the program and the
// MCP SDK have loaded (~25 ms after start instead of ~100), then hands the session to the SDK's
// server with every byte it read put back. An agent's client sends `initialize` as soon as it has
// started the server, and some give up on a server that is slow to answer it.
//
// The answer is the SDK's own: the build runs the SDK's server once and keeps its initialize
// response (dist/mcp-initialize.json, scripts/mcp-initialize.ts). The server still receives the
// request, so it knows its client; its answer is not sent again, and is checked against the one
// sent here (src/commands/mcp/server.ts). Anything but a well-formed `initialize` as the first
// line is left to the SDK untouched.

/** What the build recorded: the SDK's protocol versions and its answer to initialize. */
export interface InitializeRecord {
  /** Protocol versions the SDK's server speaks; it answers a request for another with `latest`. */
  supported: string[];
  latest: string;
  /** The SDK server's initialize response message, as it writes it (id and version replaced). */
  response: {
    result: { protocolVersion: string } & Record<string, unknown>;
    jsonrpc: "2.0";
    id: number | string;
  };
  /** Global flags that take a value, to find the command word in the line. */
  valueFlags: string[];
}

/** What the SDK's server is told: the request answered here and the line that answered it. */
export interface EarlyAnswer {
  id: number | string;
  line: string;
}

export const EARLY_ANSWER = Symbol.for("tokenintel.mcp.early-answer");

/** The longest first line read here; a longer one is the SDK's to read (and refuse). */
const MAX_LINE = 1 << 20;

/** Whether the command line runs `tokenintel mcp` (the first word that is not a flag or its value). */
export function runsMcp(args: readonly string[], valueFlags: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return args[i + 1] === "mcp";
    if (!arg.startsWith("-")) return arg === "mcp";
    if (!arg.includes("=") && valueFlags.includes(arg)) i++;
  }
  return false;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The line answering `line` when it is a well-formed initialize request (the shape the SDK checks),
 * else undefined.
 */
export function answerFor(line: string, record: InitializeRecord): EarlyAnswer | undefined {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(request) || request.jsonrpc !== "2.0" || request.method !== "initialize") return undefined;
  const { id, params } = request;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) return undefined;
  if (!isObject(params) || typeof params.protocolVersion !== "string" || !isObject(params.capabilities))
    return undefined;
  const client = params.clientInfo;
  if (!isObject(client) || typeof client.name !== "string" || typeof client.version !== "string")
    return undefined;
  const version = record.supported.includes(params.protocolVersion) ? params.protocolVersion : record.latest;
  const response = {
    ...record.response,
    result: { ...record.response.result, protocolVersion: version },
    id,
  };
  return { id, line: `${JSON.stringify(response)}\n` };
}

/**
 * Answers the first line of stdin when it is an initialize request, then calls `load` (which starts
 * the program) with stdin paused and all it read put back. `load` is called at once when the line
 * does not run `mcp`, and after `waitMs` when no whole line has come by then.
 */
export function answerInitializeEarly(
  args: readonly string[],
  recordFile: string,
  load: () => void,
  waitMs = 100,
): void {
  let record: InitializeRecord;
  try {
    record = JSON.parse(readFileSync(recordFile, "utf8")) as InitializeRecord;
  } catch {
    load(); // not built with it: the SDK answers
    return;
  }
  if (!runsMcp(args, record.valueFlags)) {
    load();
    return;
  }
  const stdin = process.stdin;
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const handOver = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    stdin.off("data", onData);
    stdin.off("end", handOver);
    // Paused, so that the server's listener does not start the flow before it is ready (it resumes
    // stdin once connected). After the end, what was read is a line without its newline, which the
    // SDK would never read either.
    stdin.pause();
    if (size > 0 && !stdin.readableEnded) stdin.unshift(Buffer.concat(chunks, size));
    load();
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    const newline = chunk.indexOf(10);
    if (newline < 0 && size < MAX_LINE) return;
    const all = Buffer.concat(chunks, size);
    const end = all.indexOf(10);
    const answer = end >= 0 && end < MAX_LINE ? answerFor(all.toString("utf8", 0, end), record) : undefined;
    if (answer) {
      (globalThis as Record<symbol, unknown>)[EARLY_ANSWER] = answer;
      writeOutSync(answer.line);
    }
    handOver();
  };
  const timer = setTimeout(handOver, waitMs);
  stdin.on("data", onData);
  stdin.on("end", handOver);
}
