import type { Readable, Writable } from "node:stream";
import { instructions, type LoadedTool, listedTool, SERVER_INFO } from "./catalog.js";
import type { JsonSchema } from "./tools.js";

// A 2025-era client's first two requests, initialize and tools/list, answered before the MCP SDK
// loads (loading it takes longer than the rest of the server's start). The answers are the ones the
// SDK server would write, computed without it; everything read here is handed to the server's wire,
// which reads it again in order so that the SDK knows its client, and drops the SDK's own answers to
// the ids answered here. Whatever else comes first (a 2026-07-28 client, a call, a line that is not a
// plain request) ends the early reading at once: the SDK answers it. So does a client that is slow to
// speak (no line for a short wait), which must not wait for the SDK any longer than it would have.

/**
 * Facts of the MCP SDK (@modelcontextprotocol/server) that the early answers repeat: the 2025-era
 * versions its initialize accepts (any other gets the first) and the capabilities its server
 * declares with tools registered. test/commands/mcp/mcp-early.test.ts fails when an SDK upgrade changes
 * either, or what it lists of a tool.
 */
export const SDK_FACTS = {
  legacyVersions: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"],
  capabilities: { tools: { listChanged: true } },
} as const;

/**
 * How long the early reader waits for a line: at most `firstLineMs` for the first, `nextLineMs` for
 * each after it. A client that speaks later is served by the SDK as it loads.
 */
export const EARLY_WAITS = { firstLineMs: 100, nextLineMs: 30 };

/** The longest line read here: an opening message is small, a longer one is the wire's to read. */
const MAX_EARLY_LINE = 64 * 1024;

/** initialize's result, as the SDK server answers a 2025-era client asking for `requested`. */
export function initializeResult(
  requested: string,
  tools: readonly LoadedTool[],
  pays: boolean,
): Record<string, unknown> {
  const versions: readonly string[] = SDK_FACTS.legacyVersions;
  return {
    protocolVersion: versions.includes(requested) ? requested : versions[0],
    capabilities: SDK_FACTS.capabilities,
    serverInfo: SERVER_INFO,
    instructions: instructions(tools, pays),
  };
}

/** tools/list's result, as the SDK server lists the tools toolset.ts registers (catalog.ts). */
export function toolsListResult(tools: readonly LoadedTool[]): { tools: JsonSchema[] } {
  return { tools: tools.map(listedTool) };
}

type Id = string | number;

/** What the early reader leaves the server's wire. */
export interface EarlyRead {
  /** Every byte read from stdin, in order, answered or not. */
  bytes: Buffer;
  /** The ids of the requests answered here. */
  answered: Id[];
  /** stdin failed while it was read here. */
  error?: Error;
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const only = (value: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(value).every((key) => keys.includes(key));

/** A line as a plain JSON-RPC message: its method, its id if it is a request, its params; else undefined. */
export function plainMessage(line: string): { method: string; id?: Id; params?: unknown } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isPlain(json) || !only(json, ["jsonrpc", "id", "method", "params"])) return undefined;
  const { jsonrpc, id, method, params } = json;
  if (jsonrpc !== "2.0" || typeof method !== "string") return undefined;
  if (params !== undefined && !isPlain(params)) return undefined;
  if (id === undefined) return { method, params };
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
  return { method, id: id as Id, params };
}

const strings = (value: Record<string, unknown>, keys: readonly string[]) =>
  keys.every((key) => value[key] === undefined || typeof value[key] === "string");
const objects = (value: unknown) => isPlain(value) && Object.values(value).every(isPlain);

/**
 * The version a 2025-era initialize asks for, when the SDK would take its params as they are: no
 * _meta (so no 2026-07-28 envelope claim), client info and capabilities of the shapes it accepts.
 * Anything rarer is left to the SDK (undefined).
 */
export function initializeVersion(params: unknown): string | undefined {
  if (!isPlain(params) || !only(params, ["protocolVersion", "capabilities", "clientInfo"])) return undefined;
  const { protocolVersion, capabilities: caps, clientInfo: client } = params;
  if (typeof protocolVersion !== "string" || !isPlain(client) || !isPlain(caps)) return undefined;
  if (typeof client.name !== "string" || typeof client.version !== "string") return undefined;
  if (!only(client, ["name", "version", "title", "websiteUrl", "description"])) return undefined;
  if (!strings(client, ["title", "websiteUrl", "description"])) return undefined;
  const { roots, sampling, elicitation, experimental, extensions, tasks } = caps;
  if (tasks !== undefined) return undefined;
  if (
    roots !== undefined &&
    !(isPlain(roots) && [undefined, true, false].includes(roots.listChanged as never))
  )
    return undefined;
  for (const part of [sampling, elicitation]) if (part !== undefined && !objects(part)) return undefined;
  for (const part of [experimental, extensions]) if (part !== undefined && !objects(part)) return undefined;
  if (isPlain(elicitation) && isPlain(elicitation.form) && elicitation.form.applyDefaults !== undefined)
    return undefined;
  return protocolVersion;
}

const isEmpty = (params: unknown) =>
  params === undefined || (isPlain(params) && Object.keys(params).length === 0);

/**
 * Reads stdin while its lines can be answered here: a 2025-era initialize first, then tools/list
 * (notifications/initialized may come between), each answered on stdout at once. Stops at any other
 * line, at tools/list's answer, at stdin's end or failure, at a line too long, or when no line came
 * in time; stdin is then left paused, for the server's wire to read on from what is returned.
 */
export function answerEarly(
  stdin: Readable,
  stdout: Writable,
  tools: readonly LoadedTool[],
  pays: boolean,
  waits = EARLY_WAITS,
): Promise<EarlyRead> {
  return new EarlyReader(stdin, stdout, tools, pays, waits).read;
}

class EarlyReader {
  /** What it leaves the wire, once it has stopped. */
  readonly read: Promise<EarlyRead>;
  private stopped!: (read: EarlyRead) => void;
  private readonly list: Promise<{ tools: JsonSchema[] }>;
  private readonly chunks: Buffer[] = [];
  private readonly answered: Id[] = [];
  private tail: Buffer = Buffer.alloc(0);
  /** What it answers next; "list" once initialize is answered, "listing" while tools/list is. */
  private stage: "initialize" | "list" | "listing" = "initialize";
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  private done = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly tools: readonly LoadedTool[],
    private readonly pays: boolean,
    private readonly waits: typeof EARLY_WAITS,
  ) {
    this.read = new Promise((resolve) => (this.stopped = resolve));
    this.list = Promise.resolve(toolsListResult(tools));
    stdin.on("data", this.onData);
    stdin.once("end", this.onEnd);
    stdin.once("error", this.onError);
    if (stdin.readableEnded) this.stop();
    else this.wait(waits.firstLineMs);
  }

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.chunks.push(data);
    if (this.stage === "listing") return;
    this.tail = this.tail.length ? Buffer.concat([this.tail, data]) : data;
    for (let newline = this.tail.indexOf(10); newline >= 0; newline = this.tail.indexOf(10)) {
      const line = this.tail.subarray(0, newline).toString("utf8");
      this.tail = this.tail.subarray(newline + 1);
      if (!this.line(line)) return;
    }
    if (this.tail.length > MAX_EARLY_LINE) this.stop();
  };

  /** Answers one line if it can; false once reading here is over (or, for tools/list, about to be). */
  private line(line: string): boolean {
    if (!line.trim()) return true;
    const message = plainMessage(line);
    const { id, method, params } = message ?? {};
    if (
      id === undefined &&
      method === "notifications/initialized" &&
      this.stage === "list" &&
      isEmpty(params)
    ) {
      this.wait(this.waits.nextLineMs);
      return true;
    }
    const version =
      this.stage === "initialize" && method === "initialize" ? initializeVersion(params) : undefined;
    if (id !== undefined && version !== undefined) {
      this.answer(id, initializeResult(version, this.tools, this.pays));
      this.stage = "list";
      this.wait(this.waits.nextLineMs);
      return true;
    }
    if (
      id !== undefined &&
      !this.answered.includes(id) &&
      this.stage === "list" &&
      method === "tools/list" &&
      isEmpty(params)
    ) {
      // The last answer given here: no other line is read while the list is made.
      this.stage = "listing";
      clearTimeout(this.timer);
      this.stdin.pause();
      this.list.then((result) => this.answer(id, result)).finally(() => this.stop());
      return false;
    }
    this.stop();
    return false;
  }

  private answer(id: Id, result: unknown): void {
    this.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
    this.answered.push(id);
  }

  private wait(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(), ms);
  }

  /** While tools/list is answered, its answer comes first: the end waits for it. */
  private readonly onEnd = () => {
    if (this.stage !== "listing") this.stop();
  };

  private readonly onError = (error: Error) => {
    this.failure = error;
    this.onEnd();
  };

  private stop(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.stdin.pause();
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("error", this.onError);
    const error = this.failure ? { error: this.failure } : {};
    this.stopped({ bytes: Buffer.concat(this.chunks), answered: this.answered, ...error });
  }
}
