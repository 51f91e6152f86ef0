import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll } from "vitest";
import { run as runProgram } from "../../src/entry/run.js";
import { baseEnv, type RunOptions, type RunResult, tempDir, transcript } from "../e2e/helpers.js";

// Commands run in-process through the program's own run() (src/entry/run.ts, what the binary calls): the
// real context, settings, client and error mapping, with strings for streams. run() takes the same
// arguments as the end-to-end tests' run() and answers the same way, without a process. A stub
// HTTP server answers only the requests a test registered and fails the test when a registered stub
// was never used (as gh's httpmock registry does).

export interface Stub {
  method: string;
  path: string;
  reply: (url: URL, body: string) => { status?: number; body: unknown };
  used: number;
}

/**
 * A stub server for the file's tests: started before them, and after them checked (every stub
 * used, every request answered) and closed. Register stubs on it at the file's top level.
 */
export function useStubServer(): StubServer {
  const server = new StubServer();
  beforeAll(() => server.start());
  afterAll(async () => {
    server.verify();
    await server.close();
  });
  return server;
}

export class StubServer {
  readonly stubs: Stub[] = [];
  readonly unmatched: string[] = [];
  /** Every request it received, answered or not. */
  received = 0;
  url = "";
  private server = createServer((req, res) => this.answer(req, res));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    return this;
  }

  on(method: string, path: string, reply: Stub["reply"]): this {
    this.stubs.push({ method, path, reply, used: 0 });
    return this;
  }

  /** Throws when a registered stub was never used, or a request matched none. */
  verify(): void {
    const unused = this.stubs.filter((s) => s.used === 0).map((s) => `${s.method} ${s.path}`);
    if (unused.length) throw new Error(`stubs never used: ${unused.join(", ")}`);
    if (this.unmatched.length) throw new Error(`requests no stub answered: ${this.unmatched.join(", ")}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      this.received++;
      const url = new URL(req.url ?? "/", this.url);
      const stub = this.stubs.find((s) => s.method === req.method && s.path === url.pathname);
      if (!stub) {
        this.unmatched.push(`${req.method} ${url.pathname}`);
        res.writeHead(404).end();
        return;
      }
      stub.used++;
      const { status = 200, body } = stub.reply(url, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  }
}

/** Strings for a run's streams: the run writes, the test reads. */
function sink(append: (s: string) => void): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      append(String(chunk));
      done();
    },
  });
}

/** A run in-process that is still going: its stdin to write to, its stdout to read as it comes. */
export interface StartedRun {
  stdin: PassThrough;
  stdout: PassThrough;
  /** What it wrote to stderr so far. */
  stderr: () => string;
  /** Its exit code, once it ends. */
  done: Promise<number>;
}

/**
 * Starts `tokenintel ...args` in-process as the end-to-end run() starts the binary: the same clean
 * environment (config and ledger in `configDir`), stdin and stdout pipes (no terminal) the test
 * drives, stderr kept. SIGINT and SIGTERM are the test's to send (`signals`).
 */
export function start(
  args: string[],
  configDir: string,
  options: Pick<RunOptions, "env"> & { signals?: EventEmitter } = {},
): StartedRun {
  const env: NodeJS.ProcessEnv = { ...baseEnv(configDir), ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  let stderr = "";
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const done = runProgram(args, {
    stdin,
    stdout,
    stderr: sink((s) => (stderr += s)),
    env,
    signals: options.signals ?? new EventEmitter(),
  }).finally(() => {
    stdout.end();
    transcript.push(stderr);
  });
  return { stdin, stdout, stderr: () => stderr, done };
}

/**
 * Runs `tokenintel ...args` in-process as the end-to-end run() runs the binary, `input` on stdin,
 * and answers as it does, every stream kept for neverShown.
 */
export async function run(
  args: string[],
  configDir: string,
  options: RunOptions & { signals?: EventEmitter } = {},
): Promise<RunResult> {
  const started = start(args, configDir, options);
  let stdout = "";
  started.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  started.stdin.end(options.input ?? "");
  let timer: NodeJS.Timeout | undefined;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`run did not end within ${timeoutMs} ms: ${args.join(" ")}`)),
      timeoutMs,
    );
  });
  try {
    const code = await Promise.race([started.done, late]);
    // What the run wrote is read once its stdout has ended.
    await new Promise<void>((resolve) =>
      started.stdout.readableEnded ? resolve() : started.stdout.once("end", resolve),
    );
    return { code, signal: null, stdout, stderr: started.stderr() };
  } finally {
    clearTimeout(timer);
    transcript.push(stdout);
  }
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Requests the command made (0: it stopped before any request). */
  clients: number;
}

/**
 * Runs `tokenintel ...args` in-process against `server` (else a server that answers nothing), with
 * a key-less clean environment plus `env`, in a config folder of its own, removed after.
 */
export async function runCommand(
  args: string[],
  options: { server?: StubServer; env?: Record<string, string> } = {},
): Promise<CommandResult> {
  const dir = tempDir("tokenintel-cmd-");
  const server = options.server ?? (await new StubServer().start());
  const before = server.received;
  try {
    const r = await run(args, dir.path, {
      env: {
        TOKENINTEL_BASE_URL: server.url,
        TOKENINTEL_CACHE_DIR: join(dir.path, "cache"),
        TOKENINTEL_RETRIES: "0",
        TOKENINTEL_TIMEOUT: "5s",
        ...options.env,
      },
    });
    return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr, clients: server.received - before };
  } finally {
    if (!options.server) await server.close();
    dir.remove();
  }
}
