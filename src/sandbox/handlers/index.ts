import { agents } from "./agents.js";
import { ask } from "./ask.js";
import type { Handler } from "./context.js";
import { directory } from "./directory.js";
import { history } from "./history.js";
import { market, marketRedirect } from "./market.js";
import { ta } from "./ta.js";
import { trending } from "./trending.js";

/** Every path the sandbox answers, and its handler. */
export const ROUTES: Record<string, Handler> = {
  "/v1/crypto-market": marketRedirect,
  "/v1/crypto-market/": market,
  "/v1/crypto-metainfo": directory,
  "/v1/crypto-metainfo/": directory,
  "/v1/agents": agents,
  "/v1/agents/": agents,
  "/v1/token-ta": ta,
  "/v1/token-ta/": ta,
  "/v1/trending": trending,
  "/v1/crypto-market-historical": history,
  "/v1/crypto-market-historical/": history,
  "/v1/ask-loky": ask,
};

/** Paths whose keyless requests are paid per request (x402). */
export const PAYABLE = new Set([
  "/v1/crypto-metainfo",
  "/v1/crypto-metainfo/",
  "/v1/crypto-market-historical",
  "/v1/crypto-market-historical/",
]);
