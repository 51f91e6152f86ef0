import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { type Command, CommanderError } from "commander";
import { ApiClient } from "../../src/api/client.js";
import { ResponseCache, responseCacheDir } from "../../src/cache/responses.js";
import { ConfigStore } from "../../src/config/store.js";
import type { ClientRequest, RunContext } from "../../src/context.js";
import { CliError, ExitCode } from "../../src/errors.js";
import { GLOBAL_FLAGS } from "../../src/flags/global.js";
import { parseFlags } from "../../src/flags/parse.js";
import { IO } from "../../src/io.js";
import { buildProgram } from "../../src/program.js";
import { Settings } from "../../src/settings.js";

// Commands run in-process against a fake context: captured streams, a temporary config folder, and
// a stub HTTP server that answers only the requests a test registered and fails the test when a
// registered stub was never used (as gh's httpmock registry does).

export interface Stub {
  method: string;
  path: string;
  reply: (url: URL, body: string) => { status?: number; body: unknown };
  used: number;
}

export class StubServer {
  readonly stubs: Stub[] = [];
  readonly unmatched: string[] = [];
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

/** A RunContext whose streams are strings, whose config lives in a temporary folder. */
export class FakeContext implements RunContext {
  readonly io: IO;
  readonly settings: Settings;
  readonly signal = new AbortController().signal;
  readonly commandLine = "tokenintel (test)";
  /** Payments are tested end to end (test/e2e/x402.test.ts), not here. */
  readonly payment = undefined;
  readonly configDir = mkdtempSync(join(tmpdir(), "tokenintel-cmd-"));
  stdout = "";
  stderr = "";
  /** How many clients the command asked for: 0 means no request could have been made. */
  clients = 0;
  private clientInstance: ApiClient | undefined;
  private cacheInstance: ResponseCache | undefined;

  constructor(
    globals: Record<string, unknown>,
    private readonly baseUrl: string,
    env: Record<string, string> = {},
  ) {
    const sink = (append: (s: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          append(String(chunk));
          done();
        },
      });
    const stdin = new PassThrough();
    stdin.end();
    this.io = new IO({
      stdin,
      stdout: sink((s) => (this.stdout += s)),
      stderr: sink((s) => (this.stderr += s)),
      env: {
        TOKENINTEL_CACHE_DIR: join(this.configDir, "cache"),
        ...env,
        TOKENINTEL_CONFIG_DIR: this.configDir,
      },
      color: "never",
    });
    this.settings = new Settings(parseFlags(GLOBAL_FLAGS, globals), this.io.env);
    this.io.quiet = Boolean(this.settings.globals.quiet);
  }

  async client(request: ClientRequest): Promise<ApiClient> {
    this.clients++;
    const key = await this.settings.apiKey();
    if (request.keyRequired && !key) throw new CliError("no API key", ExitCode.auth);
    const cache = await this.cache();
    this.clientInstance ??= new ApiClient({
      baseUrl: this.baseUrl,
      apiKey: key?.key,
      timeoutMs: 5_000,
      retries: 0,
      concurrency: this.settings.concurrency,
      log: (line) => this.io.err(line),
      verbose: false,
      quiet: true,
      cache: cache.enabled && !request.fresh ? cache : undefined,
    });
    return this.clientInstance;
  }

  store(): Promise<ConfigStore> {
    return ConfigStore.open(this.io.env);
  }

  async program(): Promise<Command> {
    const { fullProgram } = await import("../../src/program.js");
    return fullProgram();
  }

  async cache(): Promise<ResponseCache> {
    this.cacheInstance ??= new ResponseCache({
      dir: responseCacheDir(this.io.env),
      ttlMs: await this.settings.cacheTtlMs(),
      maxBodyBytes: 32 * 1024 * 1024,
    });
    return this.cacheInstance;
  }

  async close(): Promise<void> {
    await this.clientInstance?.close();
    rmSync(this.configDir, { recursive: true, force: true });
  }
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Clients the command asked for (0: it stopped before any request). */
  clients: number;
}

/** Runs `tokenintel ...args` in-process: the real program and command, a fake context. */
export async function runCommand(
  args: string[],
  options: { server?: StubServer; env?: Record<string, string> } = {},
): Promise<CommandResult> {
  let ctx: FakeContext | undefined;
  let commanderOutput = "";
  let code: number = ExitCode.ok;
  try {
    const program = await buildProgram({
      contextFor: async (cmd) => {
        ctx ??= new FakeContext(
          cmd.optsWithGlobals(),
          options.server?.url ?? "http://127.0.0.1:9",
          options.env,
        );
        return ctx;
      },
      write: { out: (s) => (commanderOutput += s), err: (s) => (commanderOutput += s) },
    });
    await program.parseAsync(["node", "tokenintel", ...args]);
  } catch (error) {
    if (error instanceof CommanderError) code = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    else if (error instanceof CliError) {
      code = error.exitCode;
      commanderOutput += `tokenintel: ${error.message}\n`;
    } else throw error;
  }
  const result = {
    code,
    stdout: ctx?.stdout ?? "",
    stderr: (ctx?.stderr ?? "") + commanderOutput,
    clients: ctx?.clients ?? 0,
  };
  await ctx?.close();
  return result;
}
