import type { Command } from "commander";
import type { ApiClient, PaymentHook } from "./api/client.js";
import type { ResponseCache } from "./cache/responses.js";
import type { ConfigStore } from "./config/store.js";
import { AuthError } from "./errors.js";
import type { IO } from "./io.js";
import type { PaymentOptions, PaymentSession, RequestEstimate } from "./payment/session.js";
import { type GlobalOptions, type LocalSandbox, type SandboxStarter, Settings } from "./settings.js";

export type { GlobalOptions, KeySource, SandboxStarter } from "./settings.js";

/** What a command asks of the client it is handed. */
export interface ClientRequest {
  /** Fail with exit 4 before any request when no key is set. */
  keyRequired: boolean;
  /** Pay per request instead of sending the key (--pay, --dry-run). */
  payment?: PaymentOptions;
  /** How many requests the command will make, for the price in a 402 message. */
  estimate?: RequestEstimate;
  /** Every answer from the server, none from the response cache (a watch's refreshes). */
  fresh?: boolean;
  /** With --sandbox, its markets move every second, so that a watch has something to show. */
  liveSandbox?: boolean;
  /** Send this key instead of the settings' (`auth login` checks a key before storing it). */
  apiKey?: string;
}

/**
 * What a command's run() may use, handed out lazily: a command that makes no request opens no
 * store, loads no HTTP client and starts no sandbox. Tests hand commands a fake one.
 */
export interface RunContext {
  readonly io: IO;
  readonly signal: AbortSignal;
  readonly settings: Settings;
  /** The command line as typed, for a watch's header. */
  readonly commandLine: string;
  client(request: ClientRequest): Promise<ApiClient>;
  /** The run's payment session, once client() was asked to pay (--pay, --dry-run). */
  readonly payment: PaymentSession | undefined;
  store(): Promise<ConfigStore>;
  /** The response cache (--cache <ttl>); disabled (ttl 0) unless a TTL is set. */
  cache(): Promise<ResponseCache>;
  /**
   * The whole program, every command defined in full (for completion scripts): handed to a command
   * by its runner, so that no command imports the file that lists the commands.
   */
  program(): Promise<Command>;
}

/** How long a run that ends waits for the answers to payments already sent. */
const PAYMENT_DRAIN_MS = 5_000;

/** The real context of one run of the program. */
export class Context implements RunContext {
  /**
   * Starts the local API for --sandbox: set by the entry point (entry/run.ts), which wires the
   * program, since this file sits below the sandbox and never imports it. It is the class's, not
   * an argument of one context, so that a context a command makes for itself (the MCP server's
   * paying one) starts the sandbox as the run's own does.
   */
  static sandboxStarter: SandboxStarter | undefined;
  readonly settings: Settings;
  private storePromise: Promise<ConfigStore> | undefined;
  private cachePromise: Promise<ResponseCache> | undefined;
  private clientInstance: ApiClient | undefined;
  private clientPromise: Promise<ApiClient> | undefined;
  private sandbox: LocalSandbox | undefined;
  payment: PaymentSession | undefined;
  /**
   * The command stops by itself once the run's signal is aborted (a server that lets its calls in
   * flight finish): the run waits for it, and a SIGTERM it then ends well after exits 0.
   */
  stopsGracefully = false;

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    readonly signal: AbortSignal,
    /** The words after `tokenintel` (what `mcp --print-config` repeats in the entry it prints). */
    readonly args: readonly string[],
    /** The whole program (entry/run.ts hands it in): this file sits below the program and never imports it. */
    private readonly wholeProgram: () => Promise<Command>,
  ) {
    this.settings = new Settings(globals, io.env, Context.sandboxStarter);
    io.quiet = Boolean(globals.quiet);
    io.addSecret(globals.apiKey);
    io.addSecret(io.env.TOKENINTEL_API_KEY);
    io.addSecret(io.env.TOKENINTEL_WALLET_KEY?.trim());
  }

  /** The command line as typed, for a watch's header and the ledger. */
  get commandLine(): string {
    return ["tokenintel", ...this.args].join(" ");
  }

  store(): Promise<ConfigStore> {
    this.storePromise ??= import("./config/store.js").then(({ ConfigStore }) =>
      ConfigStore.open(this.io.env),
    );
    return this.storePromise;
  }

  cache(): Promise<ResponseCache> {
    this.cachePromise ??= (async () => {
      const [{ ResponseCache, responseCacheDir }, { DEFAULT_MAX_BODY_BYTES }] = await Promise.all([
        import("./cache/responses.js"),
        import("./contract/limits.js"),
      ]);
      return new ResponseCache({
        dir: responseCacheDir(this.io.env),
        ttlMs: await this.settings.cacheTtlMs(),
        maxBodyBytes: this.globals.maxBody ?? DEFAULT_MAX_BODY_BYTES,
        onProblem: (message) => this.io.warn(message),
      });
    })();
    return this.cachePromise;
  }

  /**
   * The HTTP client; with --sandbox, starts the sandbox in-process first. A request that pays gets
   * it with the payment session's hook for its own run (request.payment's command line): runs that
   * share the context (an MCP server's calls) share the session, each payment recorded as theirs.
   */
  async client(request: ClientRequest): Promise<ApiClient> {
    // Made once, even when asked for twice at once (the MCP server's concurrent calls): a second
    // client would start a second sandbox that close() never stops.
    // A client that could not be made (no key yet) is not kept: the next request tries again.
    this.clientPromise ??= this.makeClient(request).catch((error: unknown) => {
      this.clientPromise = undefined;
      throw error;
    });
    const client = await this.clientPromise;
    const ledger = request.payment?.ledger;
    return this.payment && ledger !== undefined
      ? client.withPayment(this.payment.forRun(ledger.commandLine, ledger.holder))
      : client;
  }

  private async makeClient(request: ClientRequest): Promise<ApiClient> {
    const { settings, globals } = this;
    const timeoutMs = await settings.timeoutMs();
    const retries = await settings.retries();
    let baseUrl: string;
    let baseUrlSource = "--sandbox";
    if (globals.sandbox) {
      const starter = Context.sandboxStarter;
      if (!starter) throw new Error("--sandbox: this run was given no sandbox to start");
      this.sandbox = await starter.start({ liveSeconds: request.liveSandbox ? 1 : undefined });
      baseUrl = this.sandbox.url;
    } else {
      baseUrl = await settings.baseUrl();
      baseUrlSource = settings.baseUrlSource();
    }
    // Paying per request replaces the key: it is not sent, so the server asks for a payment.
    const key = request.payment
      ? undefined
      : request.apiKey !== undefined
        ? { key: request.apiKey, source: undefined }
        : await settings.apiKey();
    if (key?.source === "store") {
      this.io.addSecret(key.key);
      this.warnIfReadable(settings.configFile());
    }
    if (request.keyRequired && !key) {
      throw new AuthError(
        "no API key: run 'tokenintel auth login', set TOKENINTEL_API_KEY, or try the local sandbox with --sandbox",
      );
    }
    const { ApiClient, isLoopback } = await import("./api/client.js");
    const cache = await this.cache();
    const log = (line: string) => this.io.err(line);
    const estimate = request.estimate ?? { requests: undefined, exact: false };
    let payment: PaymentHook;
    if (request.payment) {
      const { PaymentSession, assertPaymentMayTravel } = await import("./payment/session.js");
      // Before any request: a payment, like the key, never crosses plain http to another machine.
      assertPaymentMayTravel(new URL(baseUrl), isLoopback);
      this.payment = new PaymentSession(request.payment, estimate, log, Boolean(globals.verbose));
      payment = this.payment;
    } else {
      // Not paying: a 402 ends the run with the price and the ways out (loaded only if one comes).
      payment = {
        refusal: async (res, paid) =>
          (await import("./payment/refusal.js")).paymentRequiredError(res, paid, estimate),
      };
    }
    this.clientInstance = new ApiClient({
      payment,
      baseUrl,
      baseUrlSource,
      apiKey: key?.key,
      timeoutMs,
      retries,
      concurrency: settings.concurrency,
      ratePerMinute: globals.rate,
      maxBodyBytes: globals.maxBody,
      signal: this.signal,
      log,
      verbose: Boolean(globals.verbose),
      quiet: this.io.quiet,
      cache: cache.enabled && !request.fresh ? cache : undefined,
      // The sandbox listens on a new port each run; its answers are the same whichever.
      cacheOrigin: globals.sandbox ? "sandbox" : undefined,
    });
    return this.clientInstance;
  }

  /** The stored key is used from a file others can read: said once, with the fix. */
  private warnIfReadable(file: string): void {
    const { statSync } = process.getBuiltinModule("node:fs");
    const mode = statSync(file, { throwIfNoEntry: false })?.mode;
    if (mode === undefined || (mode & 0o077) === 0) return;
    const octal = (mode & 0o777).toString(8).padStart(4, "0");
    this.io.warn(
      `the config file ${file} holds your API key and others can read it (mode ${octal}); run: chmod 600 '${file}'`,
    );
  }

  program(): Promise<Command> {
    return this.wholeProgram();
  }

  /** Ends the run: says what was paid, if anything; closes connections and the sandbox. */
  async close(): Promise<void> {
    // A payment still in flight when the run ends (another page failed first) is waited for, a
    // little, so that its answer is read and recorded (settled or refused) rather than guessed.
    if (!this.signal.aborted) await this.payment?.drain(PAYMENT_DRAIN_MS);
    this.payment?.finish(); // payments sent and never answered: "unknown" in the ledger
    const paid = this.payment?.summary();
    if (paid) this.io.err(paid);
    const fromCache = this.payment ? ((await this.cachePromise)?.hits ?? 0) : 0;
    if (fromCache > 0)
      this.io.err(
        `tokenintel: ${fromCache} answer${fromCache === 1 ? "" : "s"} from cache, nothing paid for ${fromCache === 1 ? "it" : "them"}`,
      );
    await this.clientInstance?.close();
    await this.sandbox?.close();
  }
}
