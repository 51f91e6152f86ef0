import * as z from "zod";
import { parseAmount } from "../api/payment.js";
import type { Context } from "../context.js";
import { parseFlag, positiveInt } from "./options.js";

export interface RawSandboxOptions {
  port?: string;
  host?: string;
  tokens?: string;
  seed?: string;
  latency?: string;
  failRate?: string;
  throttleRate?: string;
  throttleStatus?: string;
  resetRate?: string;
  truncateRate?: string;
  htmlRate?: string;
  hangRate?: string;
  duplicateRate?: string;
  directoryStyle?: string;
  x402Version?: string;
  key?: string;
  maxInFlight?: string;
  x402Network?: string;
  x402Price?: string;
  x402DomainName?: string;
  live?: string;
}

const rate = z
  .string()
  .regex(/^(0(\.\d+)?|1(\.0+)?)$/, "expected a rate from 0 to 1")
  .transform(Number);
const whole = z.string().regex(/^\d+$/, "expected a whole number").transform(Number);

/** `tokenintel sandbox`: the local API, in the foreground until Ctrl-C. */
export async function runSandbox(ctx: Context, raw: RawSandboxOptions): Promise<void> {
  const num = (flag: string, value: string | undefined, schema: z.ZodType<number>) =>
    value === undefined ? undefined : parseFlag(flag, schema, value);
  const port =
    num(
      "--port",
      raw.port,
      whole.refine((n) => n <= 65535, "expected a port from 0 to 65535"),
    ) ?? 4020;
  const host = raw.host ?? "127.0.0.1";
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host)) {
    const { UsageError } = await import("../errors.js");
    throw new UsageError("--host: the sandbox listens on loopback only (127.0.0.1, localhost or ::1)");
  }
  const { startSandbox } = await import("../sandbox/server.js");
  const server = await startSandbox({
    port,
    host,
    apiKey: raw.key,
    tokens: num("--tokens", raw.tokens, positiveInt("of 1 or more")),
    seed: num("--seed", raw.seed, whole),
    latencyMs: num("--latency", raw.latency, whole),
    failRate: num("--fail-rate", raw.failRate, rate),
    throttleRate: num("--throttle-rate", raw.throttleRate, rate),
    throttleStatus: num(
      "--throttle-status",
      raw.throttleStatus,
      whole.refine((n) => n >= 400 && n <= 599, "expected a 4xx or 5xx status"),
    ),
    resetRate: num("--reset-rate", raw.resetRate, rate),
    truncateRate: num("--truncate-rate", raw.truncateRate, rate),
    htmlRate: num("--html-rate", raw.htmlRate, rate),
    hangRate: num("--hang-rate", raw.hangRate, rate),
    duplicateRate: num("--duplicate-rate", raw.duplicateRate, rate),
    maxInFlight: num("--max-in-flight", raw.maxInFlight, positiveInt("of 1 or more")),
    x402Network: raw.x402Network
      ? parseFlag("--x402-network", z.enum(["base", "base-sepolia"]), raw.x402Network)
      : undefined,
    priceAtomic: raw.x402Price ? String(parseAmount("--x402-price", raw.x402Price, 6)) : undefined,
    x402DomainName: raw.x402DomainName,
    liveSeconds: num("--live", raw.live, positiveInt("of seconds")),
    directoryStyle: raw.directoryStyle
      ? parseFlag("--directory-style", z.enum(["envelope", "bare", "paginated"]), raw.directoryStyle)
      : undefined,
    x402Version: raw.x402Version
      ? (parseFlag("--x402-version", z.enum(["1", "2"]).transform(Number), raw.x402Version) as 1 | 2)
      : undefined,
  });
  const { base, solana } = server.data.counts;
  await ctx.io.out(`url: ${server.url}\napi key: ${server.apiKey}\n`);
  ctx.io.err(
    `tokenintel: sandbox serving ${base} base and ${solana} solana tokens; try: tokenintel market --base-url ${server.url} --api-key ${server.apiKey} --chain base --ecosystem virtuals`,
  );
  ctx.io.err("tokenintel: press Ctrl-C to stop");
  await new Promise<void>((resolve) => {
    ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.close();
}
