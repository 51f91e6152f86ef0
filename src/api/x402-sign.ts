// The x402 reference client (@x402/core, @x402/evm with viem), loaded only when a payment is made.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import type { ApiResponse } from "./client.js";
import type { PaymentRequirement } from "./x402.js";

function headerOf(res: ApiResponse): (name: string) => string | undefined {
  return (name) => {
    const value = res.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
}

export function createSigner(privateKey: string, maxPayment: string) {
  const key = (privateKey.startsWith("0x") ? privateKey : `0x${privateKey}`) as `0x${string}`;
  const account = privateKeyToAccount(key);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  // tokenintel has checked its own caps already; the library's per-payment cap agrees with them.
  client.setSpendControls({ maxAmountPerPayment: maxPayment });
  const http = new x402HTTPClient(client);
  return {
    address: account.address as string,
    async sign(res: ApiResponse, requirement: PaymentRequirement): Promise<Record<string, string>> {
      const required = http.getPaymentRequiredResponse(headerOf(res), res.body);
      const payload = await http.createPaymentPayload({
        ...required,
        accepts: [requirement.raw],
      } as typeof required);
      return http.encodePaymentSignatureHeader(payload);
    },
    settlement(res: ApiResponse): string | undefined {
      try {
        const settle = http.getPaymentSettleResponse(headerOf(res));
        return settle.transaction || undefined;
      } catch {
        return undefined;
      }
    },
  };
}
