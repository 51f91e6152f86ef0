import { randomBytes } from "node:crypto";
import type { Chain } from "../../contract/api.js";
import { HttpError, isChain } from "../http.js";
import { type Handler, requireKey } from "./context.js";

/** POST /v1/ask-loky (api.md §4.3): a canned markdown answer naming the tokens the question names. */
export const ask: Handler = (req, ctx) => {
  if (req.method !== "POST") throw new HttpError(405, "use POST with a JSON body");
  let parsed: { api_key?: unknown; chain?: unknown; question?: unknown };
  try {
    parsed = JSON.parse(req.body || "{}");
  } catch {
    throw new HttpError(400, "the body must be JSON");
  }
  const key = typeof parsed.api_key === "string" ? parsed.api_key : undefined;
  // Without a key, paid per request (x402) like every endpoint of the provider's.
  if (key === undefined && !req.paid) return ctx.paymentRequired(req.url);
  if (key !== undefined) requireKey(ctx, key);
  if (typeof parsed.question !== "string" || !parsed.question.trim())
    throw new HttpError(400, "question is required");
  let chain: Chain | undefined;
  if (parsed.chain !== undefined) {
    if (!isChain(parsed.chain)) throw new HttpError(400, "unsupported chain (base or solana)");
    chain = parsed.chain;
  }
  const words = parsed.question
    .split(/[\s,.;:!?()]+/)
    .map((w) => w.replace(/^\$/, ""))
    .filter(Boolean);
  const details = ctx.data
    .findBySymbols(chain, words)
    .slice(0, 5)
    .map((t) => ctx.data.askDetail(t));
  const lines = details.length
    ? [
        "## Sandbox answer",
        "",
        `You asked: *${parsed.question.trim()}*`,
        "",
        ...details.map(
          (d) =>
            `- **${d.token_ticker}** (${d.token_name}) on ${d.chain}: price $${d.current_usd_price}, ${d.last_24_hrs_price_change_percentage}% in 24h, market cap $${d.market_cap}`,
        ),
        "",
        "Data from the tokenintel sandbox (`tokenintel sandbox`): synthetic, not financial advice.",
      ]
    : [
        "## Sandbox answer",
        "",
        `I found no token named in your question. Try naming a ticker, for example \`$${ctx.data.token("base", 0)!.symbol}\`.`,
      ];
  const answer = {
    questionId: randomBytes(12).toString("hex"),
    answerId: randomBytes(12).toString("hex"),
    nlpResponse: lines.join("\n"),
    tokenDetails: details.length ? details : null,
  };
  // The provider's docs show the answer bare; api.md wraps it in {success, data}.
  return { body: ctx.options.askStyle === "bare" ? answer : { success: true, data: answer } };
};
