import type { ApiClient } from "../../api/client.js";
import type { RunContext } from "../../context.js";
import type { Chain } from "../../contract/api.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { ASK_TOKEN_DETAIL } from "../../contract/shapes.js";
import { UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { paymentOptions } from "../../payment/options.js";
import { chooseFormat, warnTableOnly } from "../data/output.js";
import { checkPaths, pathListing } from "../data/path-flags.js";
import { ANSWER_KEYS, answerOf, askSelection } from "./answer.js";
import type { Grounding } from "./explain.js";
import type askCommand from "./index.js";
import { writeAnswer } from "./write.js";

type AskOptions = FlagValues<typeof askCommand.flags>;

const MAX_QUESTION = 2000;

// ask: the question read, sent (or its payment planned), the answer read, grounded with --explain,
// and written in the format chosen (write.ts).

export async function runAsk(ctx: RunContext, questionArg: string, opts: AskOptions): Promise<void> {
  if (opts.fields === true) {
    // `--fields` alone: what it can name, one a line (like `gh ... --json` with no fields).
    await ctx.io.out(pathListing(ASK_TOKEN_DETAIL, [...ANSWER_KEYS, "tokenDetails"]));
    return;
  }
  const question = await readQuestion(ctx, questionArg);
  if (opts.deep) {
    const { runDeep } = await import("./deep.js");
    return runDeep(ctx, question, opts);
  }
  const format = await chooseFormat(ctx, opts);
  warnTableOnly(ctx, format, opts);
  if (opts.explain && format !== "table" && format !== "json" && format !== "ndjson")
    throw new UsageError(`ask --explain writes a table, JSON or NDJSON, not ${format}`);
  const selection = opts.fields ? askSelection(opts.fields) : undefined;
  const chosen =
    checkPaths("--columns", opts.columns, ASK_TOKEN_DETAIL, "ask token details") ?? selection?.detailFields;

  const payment = await paymentOptions(ctx, opts);
  const client = await ctx.client({
    keyRequired: !payment,
    payment,
    // --explain asks the market for the tokens the answer names: more requests, not known yet.
    estimate: { requests: 1, exact: !opts.explain },
  });
  const { chain } = opts;
  const request = {
    path: ENDPOINTS.ask.path,
    method: "POST" as const,
    body: chain ? { chain, question } : { question },
  };
  if (payment?.dryRun) {
    const { planPayment } = await import("../../payment/dry-run.js");
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, request)}`);
    return;
  }
  // The run's signal goes with the request: an MCP call cancelled while it waits signs nothing.
  const res = await client.request(request.path, { ...request, label: "ask", signal: ctx.signal });
  const data = answerOf(res.status, res.body);
  const grounding = opts.explain
    ? await explain(ctx, client, data.tokenDetails ?? [], question, chain)
    : undefined;
  await writeAnswer(ctx, format, data, { selection, grounding, chosen, wide: opts.wide, crlf: opts.crlf });
}

/** The question from the words given, or from standard input for "-"; trimmed, not empty, bounded. */
async function readQuestion(ctx: RunContext, questionArg: string): Promise<string> {
  const question = (questionArg === "-" ? await ctx.io.readInput("ask: '-'") : questionArg).trim();
  if (!question)
    throw new UsageError(
      `ask needs a question: tokenintel ask 'how is $AERO doing?' (or pipe it in with 'ask -')`,
    );
  if (question.length > MAX_QUESTION)
    throw new UsageError(`ask: the question is longer than ${MAX_QUESTION} characters`);
  return question;
}

/** --explain: looks the answer's tokens up; what cannot be looked up is said on stderr. */
async function explain(
  ctx: RunContext,
  client: ApiClient,
  details: unknown[],
  question: string,
  chainFlag: Chain | undefined,
): Promise<Grounding[]> {
  const { namedTokens, groundTokens, MAX_EXPLAINED_TOKENS } = await import("./explain.js");
  const all = namedTokens(details, question);
  if (!all.length) {
    ctx.io.warn("--explain: the answer names no tokens (no token details, no $TICKER in the question)");
    return [];
  }
  const named = all.slice(0, MAX_EXPLAINED_TOKENS);
  if (all.length > named.length)
    ctx.io.warn(
      `--explain: the answer names ${all.length.toLocaleString("en-US")} tokens; the first ${named.length} are looked up, ${(all.length - named.length).toLocaleString("en-US")} left out`,
    );
  const chain = await ctx.settings.get("chain", chainFlag);
  const { rows, unknownChain } = await groundTokens(ctx, client, named, chain);
  if (unknownChain.length)
    ctx.io.warn(
      `--explain: no chain for ${unknownChain.join(", ")}, so no figures: add --chain base or --chain solana`,
    );
  const missing = rows.filter((r) => r.missing === "no market record").map((r) => r.named);
  if (missing.length) ctx.io.warn(`--explain: no market record for ${missing.join(", ")}`);
  return rows;
}
