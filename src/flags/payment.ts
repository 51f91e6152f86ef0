import { settingFlags } from "./settings-table.js";
import { flagTable } from "./table.js";

/** Paying per request with x402, for the commands that can reach a keyless endpoint. */
export const PAYMENT_FLAGS = flagTable({
  pay: {
    flags: "--pay",
    // 300 s is MAX_PAYMENT_VALIDITY_SECONDS (src/payment/read-back.ts), kept out of this file's imports.
    description:
      "without an API key, pay per request with x402 (wallet key from TOKENINTEL_WALLET_KEY): USDC by EIP-3009 only, over https (or to this machine), each authorization valid for 300 s at most, one per request",
    kind: "switch",
    cliOnly: true,
  },
  walletKeyFile: {
    flags: "--wallet-key-file <path>",
    description:
      "read the wallet's private key from this file (never from an argument); the file must be yours and not readable by others (chmod 600)",
    kind: "text",
    cliOnly: true,
  },
  maxPayment: {
    flags: "--max-payment <amount>",
    description: "refuse to pay more than this per request, in the asset's units (default 0.01)",
    kind: "amount",
    cliOnly: true,
  },
  maxSpend: {
    flags: "--max-spend <amount>",
    description:
      "refuse to sign more than this in all for the whole command, payments the server refused included (default 0.10)",
    kind: "amount",
    cliOnly: true,
  },
  // --pay-network: the settings of the payment group.
  ...settingFlags("payment"),
  dryRun: {
    flags: "--dry-run",
    description:
      "show what the command would pay per request and in total, without paying (with a wallet key, the amount is read back from an authorization signed in memory, never sent)",
    kind: "switch",
    cliOnly: true,
  },
});
