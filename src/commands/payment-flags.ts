import { readFileSync } from "node:fs";
import {
  checkAmountFlag,
  DEFAULT_MAX_PAYMENT,
  DEFAULT_MAX_SPEND,
  type PaymentOptions,
} from "../api/payment.js";
import type { RunContext } from "../context.js";
import { UsageError } from "../errors.js";
import type { PAYMENT_FLAGS } from "../flags/payment.js";
import type { FlagValues } from "../flags/table.js";

/** The payment flags of the commands that can reach a keyless endpoint (directory, api). */
export type RawPaymentOptions = FlagValues<typeof PAYMENT_FLAGS>;

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * Checks the payment flags before any request. The wallet key comes from TOKENINTEL_WALLET_KEY or
 * from --wallet-key-file, never from an argument; it is registered as a secret at once.
 */
export function parsePaymentFlags(ctx: RunContext, raw: RawPaymentOptions): PaymentOptions | undefined {
  const maxPayment = checkAmountFlag("--max-payment", raw.maxPayment ?? DEFAULT_MAX_PAYMENT);
  const maxSpend = checkAmountFlag("--max-spend", raw.maxSpend ?? DEFAULT_MAX_SPEND);
  if (!raw.pay && !raw.dryRun) {
    if (raw.walletKeyFile || raw.maxPayment || raw.maxSpend) {
      throw new UsageError("--wallet-key-file, --max-payment and --max-spend go with --pay (or --dry-run)");
    }
    return undefined;
  }
  let walletKey: string | undefined;
  if (raw.walletKeyFile) {
    let text: string;
    try {
      text = readFileSync(raw.walletKeyFile, "utf8");
    } catch (error) {
      throw new UsageError(
        `--wallet-key-file: cannot read ${raw.walletKeyFile} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
    walletKey = text.trim();
    ctx.io.addSecret(walletKey);
    if (!PRIVATE_KEY.test(walletKey))
      throw new UsageError(`--wallet-key-file: ${raw.walletKeyFile} does not hold a 32-byte hex private key`);
  } else if (ctx.io.env.TOKENINTEL_WALLET_KEY) {
    walletKey = ctx.io.env.TOKENINTEL_WALLET_KEY.trim();
    ctx.io.addSecret(walletKey);
    if (!PRIVATE_KEY.test(walletKey))
      throw new UsageError("TOKENINTEL_WALLET_KEY does not hold a 32-byte hex private key");
  }
  if (raw.pay && !raw.dryRun && !walletKey) {
    throw new UsageError("--pay needs a wallet key: set TOKENINTEL_WALLET_KEY or pass --wallet-key-file");
  }
  // Both spellings of the key, with and without 0x, are secrets.
  if (walletKey) ctx.io.addSecret(walletKey.replace(/^0x/, ""));
  return { walletKey, maxPayment, maxSpend, dryRun: Boolean(raw.dryRun) };
}
