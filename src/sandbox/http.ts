import type { IncomingMessage, ServerResponse } from "node:http";
import { CHAINS, type Chain, ECOSYSTEM, MAX_SELECTOR_ITEMS } from "../contract/api.js";

// What every sandbox handler shares: errors that become an answer, the query reader, paging, and
// writing JSON.

/** Thrown by a handler: answered as `{success: false, message}` with this status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a handler answers: a JSON body (with status and headers) or a redirect. */
export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  redirect?: string;
}

/** Parses a raw query string; list parameters are split on literal commas before decoding. */
export function parseQuery(search: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    out.set(name, eq < 0 ? "" : part.slice(eq + 1));
  }
  return out;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new HttpError(400, "malformed percent-encoding in the query string");
  }
}

/** Typed reads of a request's query, each failing as a 400 the way a strict server would. */
export class QueryReader {
  private readonly raw: Map<string, string>;

  constructor(search: string) {
    this.raw = parseQuery(search);
  }

  param(name: string): string | undefined {
    const raw = this.raw.get(name);
    return raw === undefined ? undefined : decode(raw);
  }

  list(name: string): string[] | undefined {
    const raw = this.raw.get(name);
    if (raw === undefined) return undefined;
    const items = raw.split(",").map(decode).filter(Boolean);
    if (items.length > MAX_SELECTOR_ITEMS) {
      throw new HttpError(400, `${name} accepts at most ${MAX_SELECTOR_ITEMS} items (got ${items.length})`);
    }
    return items;
  }

  chain(required: boolean): Chain | undefined {
    const chain = this.param("chain");
    if (chain === undefined) {
      if (required) throw new HttpError(400, "chain is required (base or solana)");
      return undefined;
    }
    if (!isChain(chain)) throw new HttpError(400, `unsupported chain '${chain}' (base or solana)`);
    return chain;
  }

  ecosystem(): string | undefined {
    const ecosystem = this.param("ecosystem");
    if (ecosystem !== undefined && ecosystem !== ECOSYSTEM) {
      throw new HttpError(400, `unsupported ecosystem '${ecosystem}' (supported: ${ECOSYSTEM})`);
    }
    return ecosystem;
  }

  page(): number {
    const raw = this.param("page");
    if (raw === undefined) return 1;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new HttpError(400, "page must be a positive integer");
    return Number(raw);
  }
}

export function isChain(value: unknown): value is Chain {
  return typeof value === "string" && (CHAINS as readonly string[]).includes(value);
}

export interface Page<T> {
  items: T[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

/**
 * One page of a list. With a duplicate rate, a page now and then repeats the last record of the
 * page before, as the live listing does (docs/api-notes.md, "Paging").
 */
export function paged<T>(
  list: T[],
  page: number,
  size: number,
  duplicate: (() => boolean) | undefined,
): Page<T> {
  const items = list.slice((page - 1) * size, page * size);
  const previous = list[(page - 1) * size - 1];
  if (page > 1 && duplicate?.() && previous) items.unshift(previous);
  return {
    items,
    pagination: { page, pageSize: size, pageCount: Math.ceil(list.length / size), total: list.length },
  };
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function readBody(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpError(413, "body too large"));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
