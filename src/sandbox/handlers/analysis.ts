import type { TokenBase } from "../data.js";
import { type Handler, postedBody, questionOf, questionWords, type SandboxContext } from "./context.js";

// POST /v1/mcp (the provider's written market analysis, a REST endpoint): `{question}` in, a
// markdown analysis of the tokens the question names out, as `nlpResponse`. The text is made from
// the tokens' market figures alone, so the same question gets the same analysis every time; how
// long it takes is the sandbox's latency option (the live service takes 5-15 s).

/** The most tokens one analysis covers. */
const MAX_ANALYSED = 3;

export const analysis: Handler = (req, ctx) => {
  const posted = postedBody(req, ctx);
  if ("unpaid" in posted) return posted.unpaid;
  const question = questionOf(posted.body);
  const tokens = ctx.data.findBySymbols(undefined, questionWords(question)).slice(0, MAX_ANALYSED);
  const text = tokens.length ? analyse(ctx, tokens) : nothingNamed(ctx);
  const answer = { nlpResponse: text.join("\n") };
  return { body: ctx.options.askStyle === "bare" ? answer : { success: true, data: answer } };
};

function nothingNamed(ctx: SandboxContext): string[] {
  const example = ctx.data.token("base", 31) ?? ctx.data.token("base", 0)!;
  return [
    "## Market analysis",
    "",
    `The question names no token the sandbox knows, so there is nothing to analyse. Name one with a $ in front, for example \`$${example.symbol}\`.`,
  ];
}

function analyse(ctx: SandboxContext, tokens: TokenBase[]): string[] {
  const names = tokens.map((token) => `$${token.symbol}`).join(", ");
  return [
    "## Market analysis",
    "",
    `A written analysis of ${names} from the sandbox's synthetic market figures.`,
    ...tokens.flatMap((token) => ["", ...paragraphs(ctx, token)]),
    "",
    "*Synthetic sandbox data (`tokenintel sandbox`): not financial advice.*",
  ];
}

type Figures = Record<string, string | number | null | undefined>;

/** A token's heading and three paragraphs: momentum, trading and liquidity, holders. */
function paragraphs(ctx: SandboxContext, token: TokenBase): string[] {
  const record = ctx.data.marketRecord(token) as Record<string, Figures | undefined>;
  const m = record.token_metrics!;
  const h = record.token_holder_insights;
  const change24h = Number(m.price_change_percentage_24h);
  const change7d = Number(m.price_change_percentage_7d);
  const trend =
    change24h > 0 && change7d > 0
      ? "buyers have held the upper hand all week"
      : change24h < 0 && change7d < 0
        ? "sellers have been in control all week"
        : "the day's move runs against the week's, so the trend is not settled";
  const liquidityShare = (100 * Number(m.total_liquidity)) / Number(m.mcap);
  const depth = liquidityShare < 1 ? "thin" : liquidityShare < 5 ? "modest" : "deep";
  const lines = [
    `### $${token.symbol} (${token.name}) on ${token.chain}`,
    "",
    `**Momentum.** The price is $${m.usd_price}, ${m.price_change_percentage_24h}% over 24 hours and ${m.price_change_percentage_7d}% over seven days: ${trend}.`,
    "",
    `**Trading and liquidity.** The market cap is $${m.mcap}, with $${m.volume_24h} traded in the last 24 hours. Liquidity of $${m.total_liquidity} is ${liquidityShare.toFixed(2)}% of the market cap, which is ${depth} for a token of this size.`,
  ];
  if (h) {
    const top10 = Number(h.top_10_holder_percentage);
    const spread = top10 >= 50 ? "concentrated: a few wallets can move it" : "spread widely";
    lines.push(
      "",
      `**Holders.** ${h.total_holder_count} wallets hold it, ${h.holder_count_change_percentage_24h}% in 24 hours; the top 10 hold ${h.top_10_holder_percentage}% of the supply, which is ${spread}.`,
    );
  }
  return lines;
}
