import { randomBytes } from "node:crypto";
import type { Chain } from "../../contract/api.js";
import { HttpError, isChain } from "../http.js";
import { type Handler, postedBody, questionOf, questionWords } from "./context.js";

/** POST /v1/ask-loky: a canned markdown answer naming the tokens the question names. */
export const ask: Handler = (req, ctx) => {
  const posted = postedBody(req, ctx);
  if ("unpaid" in posted) return posted.unpaid;
  const { body } = posted;
  const question = questionOf(body);
  let chain: Chain | undefined;
  if (body.chain !== undefined) {
    if (!isChain(body.chain)) throw new HttpError(400, "unsupported chain (base or solana)");
    chain = body.chain;
  }
  const words = questionWords(question);
  const details = ctx.data
    .findBySymbols(chain, words)
    .slice(0, 5)
    .map((token) => ctx.data.askDetail(token));
  const lines = details.length
    ? [
        "## Sandbox answer",
        "",
        `You asked: *${question}*`,
        "",
        ...details.map(
          (detail) =>
            `- **${detail.token_ticker}** (${detail.token_name}) on ${detail.chain}: price $${detail.current_usd_price}, ${detail.last_24_hrs_price_change_percentage}% in 24h, market cap $${detail.market_cap}`,
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
  // The answer comes bare or wrapped in {success, data} (docs/api-notes.md, "Envelope and errors").
  return { body: ctx.options.askStyle === "bare" ? answer : { success: true, data: answer } };
};
