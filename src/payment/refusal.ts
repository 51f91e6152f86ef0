import type { ApiResponse } from "../api/client.js";
import { serverMessage } from "../api/server-message.js";
import { PaymentError } from "../errors.js";
import { quoteInline } from "../terminal/sanitize.js";
import { decodePaymentRequired, describePrice, readPaymentRequirements } from "./offers.js";

// What a 402 ends in when it is not (or no longer) paid: the price and the ways out, or the
// server's refusal of a payment that was sent.

/** What the command knows of how many requests it will make. */
export interface RequestEstimate {
  requests: number | undefined;
  /** False when `requests` is a lower bound. */
  exact: boolean;
}

const paymentRequiredHeader = (res: ApiResponse) =>
  typeof res.headers["payment-required"] === "string" ? res.headers["payment-required"] : undefined;

/** The server's reason for refusing a payment, as quoted: the v2 header's `error`, else the body's message. */
export function refusalReason(res: ApiResponse): string | undefined {
  const header = paymentRequiredHeader(res);
  const fromHeader = header ? decodePaymentRequired(header) : undefined;
  const error =
    fromHeader && typeof fromHeader === "object" ? (fromHeader as { error?: unknown }).error : undefined;
  return typeof error === "string" && error ? quoteInline(error) : serverMessage(res.body);
}

export function paymentRequiredError(
  res: ApiResponse,
  paid: boolean,
  estimate: RequestEstimate,
): PaymentError {
  const header = paymentRequiredHeader(res);
  if (paid) {
    const reason = refusalReason(res);
    return new PaymentError(
      `the server refused the payment (HTTP 402${reason ? `: ${reason}` : ""}); not signing a second one for the same request`,
    );
  }
  const reqs = readPaymentRequirements(res.body, header);
  const price = reqs[0] ? `${describePrice(reqs[0])} per request` : "price not stated";
  const { requests, exact } = estimate;
  const need =
    requests === undefined
      ? ""
      : `; this command needs ${exact ? "" : "at least "}${requests} request${requests === 1 ? "" : "s"}`;
  return new PaymentError(
    `payment required (HTTP 402: ${price}${need}); use an API key ('tokenintel auth login') or pay per request with --pay`,
  );
}
