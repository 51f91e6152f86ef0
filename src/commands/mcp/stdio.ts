import type { Readable, Writable } from "node:stream";
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import type { EarlyRead } from "./early.js";

// The stdio framing (one JSON-RPC message a line), as the server's wire under the SDK's serveStdio:
// a line that is not JSON is answered with a parse error (-32700), one that is JSON but no
// JSON-RPC message with an invalid request (-32600), as JSON-RPC says, instead of being dropped
// without a word. The end of stdin does not close the wire at once: the server is told
// (`onInputEnd`), lets the calls in flight answer, then closes it. A line longer than
// MAX_MESSAGE_BYTES closes it at once, with the error (the client cannot be read any further).
// What was read and answered before the wire started (early.ts) is read again first, in order, and
// the server's own answers to those requests are not sent: the client has had one for each.

/** The longest message a client may send: a line past it without a newline ends the connection. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC's own error codes for what cannot be read. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** stdin ended: the server lets its calls answer, then closes. */
  onInputEnd?: () => void;
  /** Why the wire closed by itself (a line too long, stdin failed), if it did. */
  failure: Error | undefined;
  /** The requests read and not yet answered, by id, with their method. */
  readonly unanswered = new Map<string | number, string>();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  /** The ids of requests answered before the wire started: the server's answers to them are dropped. */
  private readonly answeredEarly: Set<string | number>;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly early?: EarlyRead,
  ) {
    this.answeredEarly = new Set(early?.answered);
  }

  async start(): Promise<void> {
    if (this.early) {
      this.onData(this.early.bytes);
      if (this.early.error) this.fail(this.early.error);
      if (this.closed) return;
    }
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
    this.input.once("error", this.onInputError);
    // The early reader left stdin paused: a data listener alone does not start it again.
    if (this.early) this.input.resume();
    if (this.input.readableEnded) setImmediate(this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the connection is closed"));
    if (("result" in message || "error" in message) && message.id !== undefined && message.id !== null) {
      this.unanswered.delete(message.id);
      if (this.answeredEarly.delete(message.id)) return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const line = `${JSON.stringify(message)}\n`;
      if (this.output.write(line)) resolve();
      else {
        const done = (error?: Error | null) => {
          this.output.off("drain", done);
          this.output.off("error", done);
          error ? reject(error) : resolve();
        };
        this.output.once("drain", done);
        this.output.once("error", done);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onInputError);
    // A paused stdin lets the process leave; what the client sends after this is not read.
    this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(10); newline >= 0; newline = data.indexOf(10)) {
      this.pending.push(data.subarray(0, newline));
      const line = Buffer.concat(this.pending).toString("utf8").replace(/\r$/, "");
      this.pending = [];
      this.pendingBytes = 0;
      data = data.subarray(newline + 1);
      this.line(line);
      if (this.closed) return;
    }
    if (data.length === 0) return;
    this.pendingBytes += data.length;
    if (this.pendingBytes > MAX_MESSAGE_BYTES) {
      this.fail(new Error(`a message of over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB without a newline`));
      return;
    }
    this.pending.push(data);
  };

  private line(line: string): void {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.reply(null, PARSE_ERROR, "Parse error: the line is not JSON");
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(json);
    } catch {
      this.reply(idOf(json), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    if ("method" in message && "id" in message) this.unanswered.set(message.id, message.method);
    // A request the client cancelled is not answered (the protocol says so): it waits for nothing.
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.unanswered.delete(id);
    }
    this.onmessage?.(message);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    // JSON-RPC answers an unreadable request with id null; the SDK's types want one it could send.
    const error = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(error).catch((failure: Error) => this.onerror?.(failure));
  }

  private readonly onEnd = () => {
    if (this.closed) return;
    if (this.onInputEnd) this.onInputEnd();
    else void this.close();
  };

  private readonly onInputError = (error: Error) => this.fail(error);

  private fail(error: Error): void {
    this.failure = error;
    this.onerror?.(error);
    void this.close();
  }
}

/** The id of a request that is JSON but not JSON-RPC, when it has one a reply can carry. */
function idOf(json: unknown): string | number | null {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return null;
  const id = (json as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}
