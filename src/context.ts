import type { ZodType } from "zod";
import type { ApiClient } from "./api/client.js";
import type { PaymentOptions, PaymentSession, RequestEstimate } from "./api/payment.js";
import { readConfig, type StoredConfig } from "./config/paths.js";
import type { ConfigKey, ConfigStore } from "./config/store.js";
import { AuthError } from "./errors.js";
import type { IO } from "./io.js";
import type { OutputFormat } from "./output/writers.js";
import type { SandboxServer } from "./sandbox/server.js";

export const DEFAULT_BASE_URL = "https://api.dapplooker.com";
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_CONCURRENCY = 4;

/** Flags that every command accepts (set on the program). */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  sandbox?: boolean;
  timeout?: string;
  retries?: string;
  rate?: string;
  concurrency?: string;
  maxBody?: string;
  verbose?: boolean;
  quiet?: boolean;
  /** --color <when> gives the mode; --no-color gives false. */
  color?: boolean | string;
}

export type KeySource = "flag" | "env" | "store" | "sandbox";

/**
 * What one run needs, handed out lazily: a command that makes no request opens no store, loads no
 * HTTP client and starts no sandbox.
 */
export class Context {
  private storePromise: Promise<ConfigStore> | undefined;
  private storedConfig: StoredConfig | undefined;
  private clientInstance: ApiClient | undefined;
  private sandbox: SandboxServer | undefined;
  private payment: PaymentSession | undefined;

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    readonly signal: AbortSignal,
  ) {
    io.addSecret(globals.apiKey);
    io.addSecret(io.env.TOKENINTEL_API_KEY);
    io.addSecret(io.env.TOKENINTEL_WALLET_KEY?.trim());
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  store(): Promise<ConfigStore> {
    this.storePromise ??= import("./config/store.js").then((m) => m.ConfigStore.open(this.env));
    return this.storePromise;
  }

  /** The stored settings and key, read once without loading the conf store. */
  private stored(): StoredConfig {
    this.storedConfig ??= readConfig(this.env);
    return this.storedConfig;
  }

  /** A setting from flag, then environment, then the store. */
  setting(key: ConfigKey, flagValue: string | undefined, envName?: string): string | undefined {
    if (flagValue !== undefined) return flagValue;
    const fromEnv = envName ? this.env[envName] : undefined;
    if (fromEnv) return fromEnv;
    const value = this.stored().settings?.[key];
    return typeof value === "string" ? value : undefined;
  }

  async resolveApiKey(): Promise<{ key: string; source: KeySource } | undefined> {
    if (this.globals.apiKey) return { key: this.globals.apiKey, source: "flag" };
    if (this.globals.sandbox) {
      const { SANDBOX_API_KEY } = await import("./sandbox/data.js");
      return { key: SANDBOX_API_KEY, source: "sandbox" };
    }
    const fromEnv = this.env.TOKENINTEL_API_KEY;
    if (fromEnv) return { key: fromEnv, source: "env" };
    const stored = this.stored().apiKey;
    if (typeof stored === "string" && stored) {
      this.io.addSecret(stored);
      return { key: stored, source: "store" };
    }
    return undefined;
  }

  async outputDefault(): Promise<OutputFormat | undefined> {
    const value = this.setting("output", undefined);
    if (value === undefined) return undefined;
    const { outputSchema, parseFlag } = await import("./commands/options.js");
    return parseFlag("config output", outputSchema, value);
  }

  defaultChain(): string | undefined {
    return this.setting("chain", undefined, "TOKENINTEL_CHAIN");
  }

  /** The HTTP client; with --sandbox, starts the sandbox in-process first. */
  async client(options: {
    keyRequired: boolean;
    payment?: PaymentOptions;
    estimate?: RequestEstimate;
  }): Promise<ApiClient> {
    if (this.clientInstance) return this.clientInstance;
    const opts = await import("./commands/options.js");
    // A flag's value is checked under the flag's name, a stored one under "config <key>".
    const numberSetting = (
      key: ConfigKey,
      flag: string | undefined,
      schema: ZodType<number>,
      fallback: number,
    ) => {
      if (flag !== undefined) return opts.parseFlag(`--${key}`, schema, flag);
      const stored = this.setting(key, undefined);
      return stored === undefined ? fallback : opts.parseFlag(`config ${key}`, schema, stored);
    };
    const timeoutMs = numberSetting("timeout", this.globals.timeout, opts.durationSchema, DEFAULT_TIMEOUT_MS);
    const retries = numberSetting("retries", this.globals.retries, opts.nonNegativeInt, DEFAULT_RETRIES);
    const concurrency = this.globals.concurrency
      ? opts.parseFlag(
          "--concurrency",
          opts.positiveInt("from 1 to 32").refine((n) => n <= 32, "at most 32"),
          this.globals.concurrency,
        )
      : DEFAULT_CONCURRENCY;
    const rate = this.globals.rate ? opts.parseFlag("--rate", opts.rateSchema, this.globals.rate) : undefined;
    const maxBodyBytes =
      this.globals.maxBody === undefined
        ? undefined
        : opts.parseFlag("--max-body", opts.sizeSchema, this.globals.maxBody);

    let baseUrl: string;
    if (this.globals.sandbox) {
      const { startSandbox } = await import("./sandbox/server.js");
      this.sandbox = await startSandbox({ port: 0 });
      baseUrl = this.sandbox.url;
    } else {
      const raw = this.setting("base-url", this.globals.baseUrl, "TOKENINTEL_BASE_URL") ?? DEFAULT_BASE_URL;
      baseUrl = opts.parseFlag("--base-url", opts.baseUrlSchema, raw);
    }
    // Paying per request replaces the key: it is not sent, so the server asks for a payment.
    const key = options.payment ? undefined : await this.resolveApiKey();
    if (options.keyRequired && !key) {
      throw new AuthError(
        "no API key: run 'tokenintel auth login', set TOKENINTEL_API_KEY, or try the local sandbox with --sandbox",
      );
    }
    const { ApiClient } = await import("./api/client.js");
    const log = (line: string) => this.io.err(line);
    if (options.payment) {
      const { PaymentSession } = await import("./api/payment.js");
      this.payment = new PaymentSession(
        options.payment,
        options.estimate ?? { requests: undefined, exact: false },
        log,
        Boolean(this.globals.verbose),
      );
    }
    this.clientInstance = new ApiClient({
      payment: this.payment,
      estimate: options.estimate,
      baseUrl,
      apiKey: key?.key,
      timeoutMs,
      retries,
      concurrency,
      ratePerMinute: rate,
      maxBodyBytes,
      signal: this.signal,
      log,
      verbose: Boolean(this.globals.verbose),
      quiet: Boolean(this.globals.quiet),
    });
    return this.clientInstance;
  }

  /** Ends the run: closes connections and the sandbox; says what was paid, if anything. */
  async close(): Promise<void> {
    const paid = this.payment?.summary();
    if (paid) this.io.err(paid);
    await this.clientInstance?.close();
    await this.sandbox?.close();
  }
}
