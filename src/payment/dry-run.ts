import type { ApiClient, Query } from "../api/client.js";
import type { PaymentSession } from "./session.js";

// --dry-run: the command's first request is made once, its 402 read, and the plan said; nothing
// else is requested and nothing is paid.

export interface FirstRequest {
  path: string;
  method?: "GET" | "POST";
  query?: Query;
  body?: unknown;
}

/** One line saying what the command would pay per request and in all. */
export async function planPayment(
  client: ApiClient,
  session: PaymentSession,
  first: FirstRequest,
): Promise<string> {
  const res = await client.request(first.path, { ...first, label: "dry run", returnPaymentRequired: true });
  if (res.status !== 402)
    return `dry run: the server asked for no payment (HTTP ${res.status}); nothing would be paid`;
  return session.plan(res);
}
