// The x402 reference client (@x402/core, @x402/evm with viem), loaded only when a payment is made.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { getAddress, verifyTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ApiResponse } from "../api/client.js";
import type { KnownAsset, PaymentRequirement, SignedAuthorization } from "./offers.js";

function headerOf(res: ApiResponse): (name: string) => string | undefined {
  return (name) => {
    const value = res.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
}

/** EIP-3009's typed data: the only thing tokenintel signs. */
const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

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
    /**
     * Signs the chosen requirement with the validity window tokenintel allows (the signer turns
     * maxTimeoutSeconds into validBefore). A v2 server matches the `accepted` echo field by field
     * against its offer, so the echo is the offer as sent; the window that binds is the signed one.
     */
    async sign(
      res: ApiResponse,
      requirement: PaymentRequirement,
      validitySeconds: number,
    ): Promise<Record<string, string>> {
      const required = http.getPaymentRequiredResponse(headerOf(res), res.body);
      const payload = await http.createPaymentPayload({
        ...required,
        x402Version: requirement.x402Version,
        accepts: [{ ...requirement.raw, maxTimeoutSeconds: validitySeconds }],
      } as typeof required);
      if (payload.x402Version === 2) payload.accepted = requirement.raw as typeof payload.accepted;
      return http.encodePaymentSignatureHeader(payload);
    },
    /** True when the signature is this wallet's, over exactly this authorization for this token. */
    verify(auth: SignedAuthorization, requirement: PaymentRequirement, asset: KnownAsset): Promise<boolean> {
      return verifyTypedData({
        address: account.address,
        domain: {
          name: asset.domain.name,
          version: asset.domain.version,
          chainId: asset.chainId,
          verifyingContract: getAddress(requirement.asset),
        },
        types: TRANSFER_WITH_AUTHORIZATION,
        primaryType: "TransferWithAuthorization",
        message: {
          from: getAddress(auth.from),
          to: getAddress(auth.to),
          value: auth.value,
          validAfter: auth.validAfter,
          validBefore: auth.validBefore,
          nonce: auth.nonce as `0x${string}`,
        },
        signature: auth.signature as `0x${string}`,
      });
    },
    /** What the server's settlement header (X-PAYMENT-RESPONSE, PAYMENT-RESPONSE) says, as sent. */
    settlement(res: ApiResponse): { transaction?: unknown; payer?: unknown } | undefined {
      try {
        const settle = http.getPaymentSettleResponse(headerOf(res));
        return { transaction: settle.transaction || undefined, payer: settle.payer };
      } catch {
        return undefined;
      }
    },
  };
}
