import type { EndpointSpec } from "../../contract/endpoints.js";
import type { SandboxData, TokenBase } from "../data.js";
import { HttpError, type Page, paged, type QueryReader, type RouteResult } from "../http.js";
import type { SandboxOptions } from "../options.js";
import { hash32, rng } from "../tokens.js";

/** One request as a handler sees it. */
export interface SandboxRequest {
  method: string;
  path: string;
  url: URL;
  query: QueryReader;
  /** The body of a POST, as text. */
  body: string;
  /** This request's seeded randomness (faults.ts). */
  random: () => number;
  /** A keyless request that carried an accepted x402 payment. */
  paid: boolean;
}

/** What every handler may use: the data set, the options, and the answers shared between them. */
export interface SandboxContext {
  data: SandboxData;
  options: SandboxOptions;
  apiKey: string;
  /** The 402 answer that asks for a payment (x402.ts). */
  paymentRequired(url: URL): RouteResult;
}

export type Handler = (req: SandboxRequest, ctx: SandboxContext) => RouteResult;

export function requireKey(ctx: SandboxContext, key: string | undefined): void {
  if (!key) throw new HttpError(401, "api_key is required");
  if (key !== ctx.apiKey) throw new HttpError(401, "Invalid API key");
}

/**
 * A payable endpoint (x402): a request with a key must carry the right one; one without is paid
 * for (the server took the payment before the handler) or answered with the 402 that asks for it.
 */
export function keyOrPayment(req: SandboxRequest, ctx: SandboxContext): RouteResult | undefined {
  const key = req.query.param("api_key");
  if (key === undefined && !req.paid) return ctx.paymentRequired(req.url);
  if (key !== undefined) requireKey(ctx, key);
  return undefined;
}

/**
 * A POST's JSON body with its key checked, or the 402 that asks for a payment when it carries no
 * key and was not paid (x402): the question endpoints (ask-loky, the written analysis) take both so.
 */
export function postedBody(
  req: SandboxRequest,
  ctx: SandboxContext,
): { body: Record<string, unknown> } | { unpaid: RouteResult } {
  if (req.method !== "POST") throw new HttpError(405, "use POST with a JSON body");
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body || "{}");
  } catch {
    throw new HttpError(400, "the body must be JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new HttpError(400, "the body must be a JSON object");
  const body = parsed as Record<string, unknown>;
  const key = typeof body.api_key === "string" ? body.api_key : undefined;
  if (key === undefined && !req.paid) return { unpaid: ctx.paymentRequired(req.url) };
  if (key !== undefined) requireKey(ctx, key);
  return { body };
}

/** The question a POST asks: 400 without one. */
export function questionOf(body: Record<string, unknown>): string {
  const question = body.question;
  if (typeof question !== "string" || !question.trim()) throw new HttpError(400, "question is required");
  return question.trim();
}

/** The tickers a question names: its words, a leading $ dropped. */
export function questionWords(question: string): string[] {
  return question
    .split(/[\s,.;:!?()]+/)
    .map((word) => word.replace(/^\$/, ""))
    .filter(Boolean);
}

/** GET only. */
export function get(handler: Handler): Handler {
  return (req, ctx) => {
    if (req.method !== "GET") throw new HttpError(405, `${req.method} is not allowed on ${req.path}`);
    return handler(req, ctx);
  };
}

/** A page of `list`, repeating a record of the page before at the configured duplicate rate. */
export function pageOf<T>(req: SandboxRequest, ctx: SandboxContext, list: T[], size: number) {
  const rate = ctx.options.duplicateRate;
  return paged(list, req.query.page(), size, rate ? () => req.random() < rate : undefined);
}

/**
 * The tokens a request selects: by tickers, addresses or ids (each by the parameter the endpoint
 * table names, and only those it names), else the chain and ecosystem listing.
 */
export function selectTokens(req: SandboxRequest, ctx: SandboxContext, endpoint: EndpointSpec): TokenBase[] {
  const { query } = req;
  const { selectors } = endpoint;
  const chain = query.chain(endpoint.chainRequired);
  const list = (param: string | undefined) => (param === undefined ? undefined : query.list(param));
  const tickers = list(selectors.ticker);
  const addresses = list(selectors.address);
  const ids = list(selectors.id);
  const ecosystem = query.ecosystem();
  let tokens = ctx.data.list(chain, ecosystem);
  if (tickers) tokens = ctx.data.findBySymbols(chain, tickers);
  else if (addresses) tokens = ctx.data.findByAddresses(chain, addresses);
  else if (ids) tokens = ctx.data.findByIds(chain, ids);
  if (ecosystem && (tickers || addresses || ids))
    tokens = tokens.filter((token) => token.ecosystem === ecosystem);
  return tokens;
}

/** `meta.pagination` in the key set (and number type) the options choose, or none. */
export function paginationMeta(ctx: SandboxContext, paging: Page<unknown>["pagination"]): { meta?: unknown } {
  const keys = ctx.options.paginationKeys ?? "page-count";
  if (keys === "none") return {};
  const n = (value: number) => (ctx.options.paginationStrings ? String(value) : value);
  const pagination =
    keys === "total-pages"
      ? {
          page: n(paging.page),
          pageSize: n(paging.pageSize),
          totalPages: n(paging.pageCount),
          totalRecords: n(paging.total),
        }
      : {
          page: n(paging.page),
          pageSize: n(paging.pageSize),
          pageCount: n(paging.pageCount),
          total: n(paging.total),
        };
  return { meta: { pagination } };
}

/** A paged listing of records, keyed or paid (x402): market, agents and TA answer alike. */
export function keyedListing(listing: {
  endpoint: EndpointSpec;
  record: (ctx: SandboxContext, token: TokenBase) => unknown;
  only?: (token: TokenBase) => boolean;
}): Handler {
  return paid((req, ctx) => {
    const tokens = selectTokens(req, ctx, listing.endpoint).filter(listing.only ?? (() => true));
    const page = pageOf(req, ctx, tokens, listing.endpoint.pageSize);
    return {
      body: {
        success: true,
        data: page.items.map((token) => listing.record(ctx, token)),
        ...paginationMeta(ctx, page.pagination),
      },
    };
  });
}

/**
 * The tokens a request names, for an endpoint that requires a list (its registry entry says so): 400
 * without one, as the docs say ("at least one filter is required"); only the endpoint's chain.
 */
export function namedTokens(req: SandboxRequest, ctx: SandboxContext, endpoint: EndpointSpec): TokenBase[] {
  const params = Object.values(endpoint.selectors);
  if (!params.some((p) => req.query.param(p) !== undefined))
    throw new HttpError(400, `one of ${params.join(", ")} is required`);
  const tokens = selectTokens(req, ctx, endpoint);
  return endpoint.onlyOn ? tokens.filter((token) => token.chain === endpoint.onlyOn) : tokens;
}

/** Answers a keyless request with the x402 offer, or checks the key; then runs the handler. */
export function paid(handler: Handler): Handler {
  return get((req, ctx) => keyOrPayment(req, ctx) ?? handler(req, ctx));
}

/** A number in [0, 1) drawn from a token and a purpose, the same every run. */
export function draw(ctx: SandboxContext, token: TokenBase, what: string): () => number {
  return rng(hash32(`${what}:${ctx.data.seed}:${token.chain}:${token.index}`));
}
