// The sandbox's facilitator: it verifies a signed x402 payment with the reference verifier from
// @x402/evm (EIP-3009 `exact` on EVM), run against a simulated chain instead of an RPC node, so
// tests need no network. Loaded only when a payment arrives.
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/facilitator";
import { getAddress, keccak256, toHex, verifyTypedData } from "viem";

export interface TokenContract {
  address: string;
  name: string;
  version: string;
}

/** A USDC ledger: every payer starts with 1,000 USDC; an authorization nonce can be used once. */
export class SimulatedChain {
  private readonly balances = new Map<string, bigint>();
  private readonly usedNonces = new Set<string>();
  constructor(
    private readonly token: TokenContract,
    private readonly facilitator = "0xFac111a70000000000000000000000000000F00d",
  ) {}

  private balance(address: string): bigint {
    return this.balances.get(address.toLowerCase()) ?? 1_000_000_000n;
  }

  /** The FacilitatorEvmSigner the reference verifier reads the chain through. */
  signer() {
    const chain = this;
    return {
      getAddresses: () => [chain.facilitator as `0x${string}`],
      async readContract(args: { functionName: string; args?: readonly unknown[] }): Promise<unknown> {
        const a = args.args ?? [];
        switch (args.functionName) {
          case "balanceOf":
            return chain.balance(String(a[0]));
          case "authorizationState":
            return chain.usedNonces.has(`${String(a[0]).toLowerCase()}:${String(a[1])}`);
          case "name":
            return chain.token.name;
          case "version":
            return chain.token.version;
          case "transferWithAuthorization": {
            // eth_call simulation: the signature was checked by verifyTypedData already.
            const [from, , value, , , nonce] = a as [string, string, bigint, bigint, bigint, string];
            if (chain.usedNonces.has(`${from.toLowerCase()}:${nonce}`))
              throw new Error("FiatTokenV2: authorization is used or canceled");
            if (chain.balance(from) < value) throw new Error("ERC20: transfer amount exceeds balance");
            return undefined;
          }
          default:
            throw new Error(`simulated chain: ${args.functionName} is not simulated`);
        }
      },
      verifyTypedData: (args: Parameters<typeof verifyTypedData>[0]) => verifyTypedData(args),
      // The token is a contract; every other address is a plain account (no smart wallets here).
      getCode: async ({ address }: { address: string }) =>
        (address.toLowerCase() === chain.token.address.toLowerCase()
          ? "0x6080604052"
          : "0x") as `0x${string}`,
      writeContract: async (): Promise<`0x${string}`> => {
        throw new Error("simulated chain: no transactions");
      },
      sendTransaction: async (): Promise<`0x${string}`> => {
        throw new Error("simulated chain: no transactions");
      },
      waitForTransactionReceipt: async () => ({ status: "success" }),
    };
  }

  /** Settles a verified authorization: spends the nonce, moves the balance, names a transaction. */
  settle(from: string, value: bigint, nonce: string): `0x${string}` {
    this.usedNonces.add(`${from.toLowerCase()}:${nonce}`);
    this.balances.set(from.toLowerCase(), this.balance(from) - value);
    return keccak256(toHex(`${from}:${nonce}`));
  }
}

export interface VerifyOutcome {
  ok: boolean;
  reason?: string;
  payer?: string;
  /** The settlement header (PAYMENT-RESPONSE or X-PAYMENT-RESPONSE) to answer with. */
  responseHeader?: [string, string];
}

export async function verifyAndSettle(
  chain: SimulatedChain,
  version: 1 | 2,
  header: string,
  requirement: Record<string, unknown>,
  network: string,
): Promise<VerifyOutcome> {
  let payload: PaymentPayload;
  try {
    payload = decodePaymentSignatureHeader(header);
  } catch {
    return { ok: false, reason: "invalid_payment_header" };
  }
  const scheme = version === 2 ? new ExactEvmScheme(chain.signer()) : new ExactEvmSchemeV1(chain.signer());
  let result: { isValid: boolean; invalidReason?: string; payer?: string };
  try {
    result = await scheme.verify(payload, requirement as unknown as PaymentRequirements);
  } catch (error) {
    return { ok: false, reason: `verification failed: ${(error as Error).message}` };
  }
  if (!result.isValid)
    return { ok: false, reason: result.invalidReason ?? "invalid_payment", payer: result.payer };
  const auth = (payload.payload as { authorization: { from: string; value: string; nonce: string } })
    .authorization;
  const transaction = chain.settle(auth.from, BigInt(auth.value), auth.nonce);
  const settle = { success: true, transaction, network, payer: getAddress(auth.from) };
  const encoded = encodePaymentResponseHeader(settle as Parameters<typeof encodePaymentResponseHeader>[0]);
  return {
    ok: true,
    payer: auth.from,
    responseHeader: [version === 2 ? "payment-response" : "x-payment-response", encoded],
  };
}
