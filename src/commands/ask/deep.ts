import type { RunContext } from "../../context.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { PaymentError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { pickPaths } from "../../json/dot-paths.js";
import { stringifyJson } from "../../json/exact.js";
import { waitingLine } from "../../output/progress.js";
import { paymentOptions } from "../../payment/options.js";
import { sanitizeBlock } from "../../terminal/sanitize.js";
import { chooseFormat } from "../data/output.js";
import { ANSWER_KEYS, type AskData, answerOf, askSelection } from "./answer.js";
import type askCommand from "./index.js";
import { writeText } from "./write.js";

// ask --deep: the provider's written market analysis (POST /v1/mcp, a REST endpoint; see
// docs/api-notes.md), a few paragraphs of markdown for one question, 5-15 s and 20 times a data
// call's price. It is rendered on a terminal, written as sent (made inert) in a pipe, and given
// whole as JSON with --json.

type AskOptions = FlagValues<typeof askCommand.flags>;

const ANALYSIS = ENDPOINTS["market-analysis"];
export const WAITING_TEXT = "waiting for the written analysis (it takes 5-15 s)...";

export async function runDeep(ctx: RunContext, question: string, opts: AskOptions): Promise<void> {
  const fields = checkDeepFlags(opts);
  const given =
    opts.output !== undefined || opts.json || opts.ndjson || (await ctx.settings.get("output")) !== undefined;
  // Piped with no format asked for: the markdown as written, for a file or another tool.
  const format = given || ctx.io.stdoutIsTTY ? await chooseFormat(ctx, opts) : "markdown";
  if (format === "csv") throw new UsageError("ask --deep writes markdown or JSON, not csv");

  const payment = await paymentOptions(ctx, opts);
  const client = await ctx.client({ keyRequired: !payment, payment, estimate: { requests: 1, exact: true } });
  const request = { path: ANALYSIS.path, method: "POST" as const, body: { question } };
  if (payment?.dryRun) {
    const { planPayment } = await import("../../payment/dry-run.js");
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, request)}`);
    return;
  }
  const refused = payment && ctx.payment?.refusesPrice(ANALYSIS.price);
  if (refused)
    throw new PaymentError(
      `the written analysis (--deep) costs ${ANALYSIS.price} USDC a question, ${refused}`,
    );
  const done = waitingLine(ctx.io, WAITING_TEXT);
  let data: AskData;
  try {
    const res = await client.request(request.path, {
      ...request,
      label: "written analysis",
      signal: ctx.signal,
    });
    data = answerOf(res.status, res.body);
  } finally {
    done();
  }
  if (format === "json" || format === "ndjson") {
    const shown = fields ? pickPaths(data, fields) : data;
    await ctx.io.outJson(`${stringifyJson(shown, format === "json" ? 2 : undefined)}\n`, format === "ndjson");
    return;
  }
  if (format === "markdown") return ctx.io.out(`${sanitizeBlock(data.nlpResponse ?? "").trimEnd()}\n`);
  await writeText(ctx, data, { selection: fields ? askSelection(fields) : undefined });
}

/** The flags --deep refuses (it sends the question alone, and its answer names no tokens); --fields' keys. */
function checkDeepFlags(opts: AskOptions): string[] | undefined {
  const refused = [
    opts.chain !== undefined && "--chain",
    opts.explain && "--explain",
    opts.columns !== undefined && "--columns",
    opts.wide && "--wide",
  ].filter(Boolean);
  if (refused.length)
    throw new UsageError(
      `ask --deep sends the question alone and its answer names no tokens: leave out ${refused.join(", ")} (name the chain in the question)`,
    );
  if (opts.fields === undefined || opts.fields === true) return undefined;
  const other = opts.fields.filter((f) => !(ANSWER_KEYS as readonly string[]).includes(f));
  if (other.length)
    throw new UsageError(
      `ask --deep --fields: ${other.join(", ")} is not in the written analysis (it has ${ANSWER_KEYS.join(", ")})`,
    );
  return opts.fields;
}
