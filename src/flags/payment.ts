import { flagTable } from "./table.js";

/** Paying per request with x402, for the commands that can reach a keyless endpoint. */
export const PAYMENT_FLAGS = flagTable({
  pay: {
    flags: "--pay",
    description: "without an API key, pay per request with x402 (wallet key from TOKENINTEL_WALLET_KEY)",
    kind: "switch",
  },
  walletKeyFile: {
    flags: "--wallet-key-file <path>",
    description: "read the wallet's private key from this file (never from an argument)",
    kind: "text",
  },
  maxPayment: {
    flags: "--max-payment <amount>",
    description: "refuse to pay more than this per request, in the asset's units (default 0.01)",
    kind: "amount",
  },
  maxSpend: {
    flags: "--max-spend <amount>",
    description: "refuse to pay more than this for the whole command (default 0.10)",
    kind: "amount",
  },
  dryRun: {
    flags: "--dry-run",
    description: "show what the command would pay per request and in total, without paying",
    kind: "switch",
  },
});
