import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { USDC_DECIMALS, type UsdcNetworkName } from "../contract/assets.js";
import { UsageError } from "../errors.js";
import type { PAYMENT_FLAGS } from "../flags/payment.js";
import type { SettingValue } from "../flags/settings-table.js";
import type { FlagValues } from "../flags/table.js";
import type { IO } from "../io.js";
import type { DailyCap } from "./daily-cap.js";

/** The payment settings (pay-network, pay-to, daily-cap): from the flag, else the environment or config. */
type PaymentSetting = "pay-network" | "pay-to" | "daily-cap";

/** What reading the payment options needs of the run's settings (settings.ts gives it). */
interface PaymentSettings {
  get<K extends PaymentSetting>(key: K, flagValue?: SettingValue<K>): Promise<SettingValue<K>>;
  /** Where a setting's stored or environment value came from, for a message naming it. */
  raw(key: PaymentSetting): { source: string } | undefined;
  readonly globals: { sandbox?: boolean | undefined };
}

/** What reading the payment options needs of the run. */
interface PaymentContext {
  io: IO;
  settings: PaymentSettings;
  /** The command line as typed: the ledger records it, secrets masked. */
  commandLine?: string;
}

import { checkAmountFlag, DEFAULT_MAX_PAYMENT, DEFAULT_MAX_SPEND, parseAmount } from "./amounts.js";
import type { PaymentOptions } from "./session.js";

/** The payment flags of the commands that can reach a keyless endpoint (directory, api). */
export type RawPaymentOptions = FlagValues<typeof PAYMENT_FLAGS>;

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;
/** Permission bits a wallet key file must not have: any access for group or others (as ssh). */
const WALLET_KEY_FILE_FORBIDDEN_MODE = 0o077;

/** A path as it may be pasted into a shell. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

/**
 * Reads the wallet key file, refusing (like ssh) one that is not the user's own or that others
 * may read: a key others can read is a wallet others can empty. The checks are made on the file
 * opened, not on its name, so it cannot be swapped in between.
 */
export function readWalletKeyFile(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new UsageError(
      `--wallet-key-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (uid !== undefined && process.platform !== "win32") {
      if (st.uid !== uid) {
        throw new UsageError(
          `--wallet-key-file: '${file}' is owned by uid ${st.uid}, not by you (uid ${uid}); a wallet key file must be your own`,
        );
      }
      const mode = st.mode & 0o777;
      if (mode & WALLET_KEY_FILE_FORBIDDEN_MODE) {
        throw new UsageError(
          `--wallet-key-file: permissions ${mode.toString(8).padStart(4, "0")} for '${file}' are too open; run chmod 600 ${shellWord(file)}`,
        );
      }
    }
    return readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `--wallet-key-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks the payment flags before any request. The wallet key comes from TOKENINTEL_WALLET_KEY or
 * from --wallet-key-file, never from an argument; it is registered as a secret at once. Without
 * `keyRequired` (the flags are only checked, for an entry to print), --pay goes without a key.
 */
export function parsePaymentFlags(
  io: IO,
  raw: RawPaymentOptions,
  configNetwork?: UsdcNetworkName,
  keyRequired = true,
): PaymentOptions | undefined {
  const maxPayment = checkAmountFlag("--max-payment", raw.maxPayment ?? DEFAULT_MAX_PAYMENT);
  const maxSpend = checkAmountFlag("--max-spend", raw.maxSpend ?? DEFAULT_MAX_SPEND);
  if (!raw.pay && !raw.dryRun) {
    if (raw.walletKeyFile || raw.maxPayment || raw.maxSpend || raw.payNetwork || raw.dailyCap || raw.payTo) {
      throw new UsageError(
        "--wallet-key-file, --max-payment, --max-spend, --daily-cap, --pay-network and --pay-to go with --pay (or --dry-run)",
      );
    }
    return undefined;
  }
  let walletKey: string | undefined;
  if (raw.walletKeyFile) {
    walletKey = readWalletKeyFile(raw.walletKeyFile).trim();
    io.addSecret(walletKey);
    if (!PRIVATE_KEY.test(walletKey))
      throw new UsageError(`--wallet-key-file: ${raw.walletKeyFile} does not hold a 32-byte hex private key`);
  } else if (io.env.TOKENINTEL_WALLET_KEY) {
    walletKey = io.env.TOKENINTEL_WALLET_KEY.trim();
    io.addSecret(walletKey);
    if (!PRIVATE_KEY.test(walletKey))
      throw new UsageError("TOKENINTEL_WALLET_KEY does not hold a 32-byte hex private key");
  }
  if (raw.pay && !raw.dryRun && !walletKey && keyRequired) {
    throw new UsageError("--pay needs a wallet key: set TOKENINTEL_WALLET_KEY or pass --wallet-key-file");
  }
  // Both spellings of the key, with and without 0x, are secrets.
  if (walletKey) io.addSecret(walletKey.replace(/^0x/, ""));
  const network = raw.payNetwork ?? configNetwork;
  const maxPaymentGiven = raw.maxPayment !== undefined;
  return { walletKey, maxPayment, maxPaymentGiven, maxSpend, dryRun: Boolean(raw.dryRun), network };
}

/**
 * The payment options of a run: its flags, the pay-network and daily-cap settings (environment,
 * config), and the ledger. A paying run makes sure of the data folder before any request. With
 * `checkOnly` (mcp --print-config), the flags and settings are checked as for a run, but no wallet
 * key is needed and no folder is made.
 */
export async function paymentOptions(
  ctx: PaymentContext,
  raw: RawPaymentOptions,
  { checkOnly = false }: { checkOnly?: boolean } = {},
): Promise<PaymentOptions | undefined> {
  if (!raw.pay && !raw.dryRun) return parsePaymentFlags(ctx.io, raw);
  const { PaymentLedger, ledgerFile } = await import("./ledger.js");
  // The flag wins: the stored or environment value is read (and checked) only without it.
  const network = await ctx.settings.get("pay-network", raw.payNetwork);
  const capText = await ctx.settings.get("daily-cap", raw.dailyCap);
  const payTo = payees(await ctx.settings.get("pay-to", raw.payTo), raw.payTo ? "--pay-to" : "pay-to");
  const options = { ...parsePaymentFlags(ctx.io, raw, network, !checkOnly)!, payTo };
  const file = ledgerFile(ctx.io.env, Boolean(ctx.settings.globals.sandbox));
  if (!options.dryRun && !checkOnly) new PaymentLedger(file).prepare();
  // Masked after the flags are read: the wallet key is a secret by then.
  const commandLine = ctx.io.redact(ctx.commandLine ?? "tokenintel");
  return {
    ...options,
    ledger: { file, commandLine, dailyCap: capText ? dailyCap(ctx, raw, capText) : undefined },
  };
}

/** The pay-to allow-list, each an EVM address; one that is not is a usage error naming it. */
function payees(list: string[] | undefined, source: string): string[] | undefined {
  if (!list) return undefined;
  for (const address of list)
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      throw new UsageError(`${source}: ${JSON.stringify(address)} is not an address (0x and 40 hex digits)`);
  return list;
}

/** The daily cap in atomic units, with where it came from (--daily-cap, the environment or config). */
function dailyCap(ctx: PaymentContext, raw: RawPaymentOptions, text: string): DailyCap {
  const source =
    raw.dailyCap !== undefined ? "--daily-cap" : (ctx.settings.raw("daily-cap")?.source ?? "daily-cap");
  return { atomic: parseAmount(source, text, USDC_DECIMALS), text, source };
}
