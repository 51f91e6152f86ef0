import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { readRequestBody } from "@modelcontextprotocol/server";

// node:http on one side, the SDK's web-standard handlers (Request in, Response out) on the other.
// A body is read whole, up to its bound, before any handler sees it (the SDK's reader); a response
// is written as it streams, and a client that goes away cancels its request's signal, which the
// SDK's transports take as the exchange's cancellation.

/** The request's headers, as the web's Headers (each repeated header kept). */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return headers;
}

/**
 * The request as the web's Request, with its body's text read whole (a POST's), or "too large" when
 * it passes `maxBytes`: the reader stops there, and stops reading the socket.
 */
export async function webRequest(
  req: IncomingMessage,
  origin: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<{ request: Request; text: string | undefined } | "too large"> {
  const url = new URL(req.url ?? "/", origin);
  const headers = headersOf(req);
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD" || method === "DELETE")
    return { request: new Request(url, { method, headers, signal }), text: undefined };
  const streamed = new Request(url, {
    method,
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: "half",
    signal,
  } as RequestInit);
  const read = await readRequestBody(streamed, maxBytes);
  if (read.tooLarge) {
    req.pause();
    return "too large";
  }
  return { request: new Request(url, { method, headers, body: read.text, signal }), text: read.text };
}

/** Resolves when the response may take more (drain), or when it closed. */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

/**
 * Writes a web Response to node's, streaming its body (an SSE stream's headers go out at once);
 * resolves when it is written or the client has gone, whose going cancels the body.
 */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  if (headers["content-type"]?.startsWith("text/event-stream")) res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await writable(res);
    }
  } catch {
    // The body failed or was cancelled (the client went away): nothing more to write.
  } finally {
    res.off("close", cancel);
    res.end();
  }
}

/** A small answer of the server's own: a status, a JSON body, headers. */
export function plainResponse(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return Response.json(body, { status, headers });
}
