import type { RunContext } from "../../context.js";
import { USDC_NETWORKS, type UsdcNetworkName } from "../../contract/assets.js";
import { CliError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { parseAmount } from "../../payment/amounts.js";
import type sandboxCommand from "./index.js";

type SandboxFlags = FlagValues<typeof sandboxCommand.flags>;

/** `tokenintel sandbox`: the local API, in the foreground until Ctrl-C. */
export async function runSandbox(ctx: RunContext, opts: SandboxFlags): Promise<void> {
  const host = opts.host ?? "127.0.0.1";
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host)) {
    throw new UsageError("--host: the sandbox listens on loopback only (127.0.0.1, localhost or ::1)");
  }
  if (opts.throttleStatus !== undefined && opts.throttleStatus < 400) {
    throw new UsageError("--throttle-status: expected a 4xx or 5xx status");
  }
  const networks = opts.x402Network?.map((name) => {
    if (!Object.hasOwn(USDC_NETWORKS, name)) {
      throw new UsageError(
        `--x402-network: unknown network "${name}" (expected ${Object.keys(USDC_NETWORKS).join(", ")})`,
      );
    }
    return name as UsdcNetworkName;
  });
  const { startSandbox } = await import("../../sandbox/server.js");
  const port = opts.port ?? 4020;
  const server = await startSandbox({
    port,
    host,
    apiKey: opts.key,
    tokens: opts.tokens,
    seed: opts.seed,
    latencyMs: opts.latency,
    failRate: opts.failRate,
    throttleRate: opts.throttleRate,
    throttleStatus: opts.throttleStatus,
    resetRate: opts.resetRate,
    truncateRate: opts.truncateRate,
    htmlRate: opts.htmlRate,
    hangRate: opts.hangRate,
    duplicateRate: opts.duplicateRate,
    maxInFlight: opts.maxInFlight,
    x402Networks: networks,
    priceAtomic:
      opts.x402Price === undefined ? undefined : String(parseAmount("--x402-price", opts.x402Price, 6)),
    x402DomainName: opts.x402DomainName,
    liveSeconds: opts.live === undefined ? undefined : opts.live / 1000,
    directoryStyle: opts.directoryStyle,
    x402Version: opts.x402Version === undefined ? undefined : opts.x402Version === "2" ? 2 : 1,
    taStyle: opts.taStyle,
    askStyle: opts.askStyle,
    paginationKeys: opts.paginationKeys,
    paginationStrings: opts.paginationStrings,
    marketStyle: opts.marketStyle,
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, host, port);
  });
  const { base, solana } = server.data.counts;
  await ctx.io.out(`url: ${server.url}\napi key: ${server.apiKey}\n`);
  ctx.io.info(
    `tokenintel: sandbox serving ${base} base and ${solana} solana tokens; try: tokenintel market --base-url ${server.url} --api-key ${server.apiKey} --chain base --ecosystem virtuals`,
  );
  ctx.io.info("tokenintel: press Ctrl-C to stop");
  await new Promise<void>((resolve) => {
    ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.close();
}

/** Why the sandbox could not listen, in one line: a busy port is the user's to change. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (error.code === "EADDRINUSE")
    return new CliError(
      `sandbox: ${where} is already in use; pick another --port, or --port 0 for a free one`,
    );
  if (error.code === "EACCES")
    return new CliError(`sandbox: not allowed to listen on ${where}; pick a --port above 1023, or --port 0`);
  if (error.code === "EADDRNOTAVAIL")
    return new CliError(`sandbox: ${host} is not an address of this machine`);
  return error;
}
