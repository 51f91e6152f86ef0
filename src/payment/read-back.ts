import type { ApiResponse } from "../api/client.js";
import { PaymentError } from "../errors.js";
import { formatUnits } from "./amounts.js";
import {
  type KnownAsset,
  type PaymentRequirement,
  readSignedPayment,
  type SignedAuthorization,
} from "./offers.js";

// Before a signed payment is sent, it is read back and held to what was allowed: the amount
// checked against the caps, the offer's payee, this wallet, a short validity window, and a
// signature that covers it. The signer (sign.ts, loaded only to pay) is checked, not trusted.

/**
 * The longest an authorization tokenintel signs stays valid, whatever the offer's
 * maxTimeoutSeconds: a signature that leaks or is held back cannot be cashed after this.
 */
export const MAX_PAYMENT_VALIDITY_SECONDS = 300;

export interface Signer {
  address: string;
  sign(
    res: ApiResponse,
    requirement: PaymentRequirement,
    validitySeconds: number,
  ): Promise<Record<string, string>>;
  verify(auth: SignedAuthorization, requirement: PaymentRequirement, asset: KnownAsset): Promise<boolean>;
  settlement(res: ApiResponse): { transaction?: unknown; payer?: unknown } | undefined;
}

/** The signed authorization, after checking it is exactly what was allowed. */
export async function readBack(
  signer: Signer,
  headers: Record<string, string>,
  req: PaymentRequirement,
  asset: KnownAsset,
  checked: bigint,
): Promise<SignedAuthorization> {
  const refuse = (why: string) => new PaymentError(`refusing to send the payment: ${why}; nothing was sent`);
  const units = (atomic: bigint) => `${formatUnits(atomic.toString(), asset.decimals)} ${asset.symbol}`;
  let auth: SignedAuthorization;
  try {
    auth = readSignedPayment(headers, req);
  } catch (error) {
    throw refuse(
      `the signed payment is not the EIP-3009 transferWithAuthorization expected (${(error as Error).message})`,
    );
  }
  if (auth.value !== checked)
    throw refuse(`the signed authorization is for ${units(auth.value)}, not the ${units(checked)} checked`);
  if (auth.to.toLowerCase() !== req.payTo.toLowerCase())
    throw refuse("the signed authorization pays another address than the offer names");
  if (auth.from.toLowerCase() !== signer.address.toLowerCase())
    throw refuse("the signed authorization is not from this wallet");
  const now = BigInt(Math.floor(Date.now() / 1000));
  if (auth.validBefore - now > BigInt(MAX_PAYMENT_VALIDITY_SECONDS))
    throw refuse(
      `the signed authorization stays valid for ${auth.validBefore - now} s, over the ${MAX_PAYMENT_VALIDITY_SECONDS} s cap`,
    );
  if (auth.validBefore <= now) throw refuse("the signed authorization has already expired");
  if (!(await signer.verify(auth, req, asset)))
    throw refuse("the signature does not cover the authorization the header carries");
  return auth;
}
