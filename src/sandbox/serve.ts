import type { IncomingMessage, ServerResponse } from "node:http";
import type { SandboxContext } from "./handlers/context.js";
import { PAYABLE, ROUTES } from "./handlers/index.js";
import { HttpError, QueryReader, type RouteResult, send } from "./http.js";
import type { PaymentCheck, X402Desk } from "./x402.js";

// Serving one request as the API would: the x402 payment a keyless request to a payable path
// carries, then the path's handler. What the tests add around it is in instruments.ts.

/** The answer to one request: a status with a JSON body and headers, or a redirect (301). */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  redirect?: string;
}

export interface Incoming {
  req: IncomingMessage;
  url: URL;
  /** The body of a POST, as text. */
  body: string;
  /** This request's seeded randomness (faults.ts). */
  random: () => number;
}

/** Takes the payment where one is due and runs the handler; a handler's HttpError is its answer. */
export async function serve(incoming: Incoming, ctx: SandboxContext, desk: X402Desk): Promise<Answer> {
  try {
    const payment = await takePayment(incoming, desk);
    const refused = payment.refused;
    if (refused) return { status: refused.status ?? 402, body: refused.body, headers: refused.headers };
    return answerOf(route(incoming, ctx, payment.header !== undefined), payment.header);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, body: { success: false, message: error.message } };
  }
}

async function takePayment({ req, url }: Incoming, desk: X402Desk): Promise<PaymentCheck> {
  if (!PAYABLE.has(url.pathname) || url.searchParams.has("api_key")) return {};
  return desk.take(req, url);
}

function route({ req, url, body, random }: Incoming, ctx: SandboxContext, paid: boolean): RouteResult {
  const path = url.pathname;
  const handler = ROUTES[path];
  if (!handler) throw new HttpError(404, `no such endpoint: ${path}`);
  const method = req.method ?? "GET";
  return handler({ method, path, url, query: new QueryReader(url.search), body, random, paid }, ctx);
}

/** A handler's result as the answer, carrying the payment's settlement header. */
function answerOf(result: RouteResult, settlement: [string, string] | undefined): Answer {
  if (result.redirect) return { status: 301, redirect: result.redirect };
  const headers = { ...result.headers, ...(settlement ? { [settlement[0]]: settlement[1] } : {}) };
  return { status: result.status ?? 200, body: result.body, headers };
}

export function write(res: ServerResponse, answer: Answer): void {
  if (answer.redirect) {
    res.writeHead(301, { location: answer.redirect, "content-length": "0" });
    res.end();
    return;
  }
  send(res, answer.status, answer.body, answer.headers);
}
