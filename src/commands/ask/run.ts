import { serverMessage } from "../../api/client.js";
import { ASK_TOKEN_DETAIL } from "../../api/fields.js";
import { stringifyJson } from "../../api/json.js";
import { askDataSchema, describeIssue } from "../../api/schemas.js";
import type { RunContext } from "../../context.js";
import { ApiError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { columnForPath } from "../../output/columns.js";
import { createWriter } from "../../output/writers.js";
import { chooseFormat } from "../data/output.js";
import { checkPaths } from "../data/paths.js";
import { ASK_COLUMNS } from "./columns.js";
import type askCommand from "./index.js";

type AskOptions = FlagValues<typeof askCommand.flags>;

const MAX_QUESTION = 2000;

export async function runAsk(ctx: RunContext, questionArg: string, opts: AskOptions): Promise<void> {
  const question = (questionArg === "-" ? await ctx.io.readInput("ask: '-'") : questionArg).trim();
  if (!question) throw new UsageError("ask: the question is empty");
  if (question.length > MAX_QUESTION)
    throw new UsageError(`ask: the question is longer than ${MAX_QUESTION} characters`);
  const { chain } = opts;
  const format = await chooseFormat(ctx, opts);
  const fields = checkPaths("--fields", opts.fields, ASK_TOKEN_DETAIL, "ask token details");
  const chosen = checkPaths("--columns", opts.columns, ASK_TOKEN_DETAIL, "ask token details") ?? fields;

  const client = await ctx.client({ keyRequired: true });
  const res = await client.request("/v1/ask-loky", {
    method: "POST",
    body: chain ? { chain, question } : { question },
    label: "ask",
  });
  const data = answerOf(res.status, res.body);
  const details = data.tokenDetails ?? [];

  if (format === "json") {
    await ctx.io.outServerText(`${stringifyJson(data, 2)}\n`);
    return;
  }
  if (format === "ndjson") {
    await ctx.io.outServerText(`${stringifyJson(data)}\n`);
    return;
  }
  if (format === "table") {
    const [{ Chalk }, { renderMarkdown }] = await Promise.all([
      import("chalk"),
      import("../../output/markdown.js"),
    ]);
    const chalk = new Chalk({ level: ctx.io.color ? 1 : 0 });
    await ctx.io.out(`${renderMarkdown(data.nlpResponse ?? "(no answer text)", chalk)}\n`);
  }
  const writer = createWriter(format, ctx.io, {
    fields,
    columns: () =>
      chosen
        ? chosen.map(columnForPath)
        : opts.wide
          ? [...ASK_COLUMNS.columns, ...ASK_COLUMNS.wide]
          : ASK_COLUMNS.columns,
    emptyMessage: "No token details in this answer.",
  });
  await writer.write(details);
  await writer.end();
}

/**
 * The answer in either form it comes in: wrapped in `{success, data}` (api.md) or bare
 * `{questionId, answerId, nlpResponse}` (the provider's docs); tokenDetails may be absent or null.
 */
export function answerOf(
  status: number,
  body: unknown,
): { nlpResponse?: string | null; tokenDetails?: unknown[] | null } {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new ApiError(`HTTP ${status}: unexpected response (not a JSON object)`);
  const b = body as { success?: unknown; data?: unknown; nlpResponse?: unknown };
  if (b.success === false) {
    const detail = serverMessage(body);
    throw new ApiError(`HTTP ${status}: the server reported a failure${detail ? `: ${detail}` : ""}`);
  }
  const bare = !("data" in b) && ("nlpResponse" in b || "questionId" in b || "answerId" in b);
  const data = bare ? body : b.data;
  const parsed = askDataSchema().safeParse(data);
  if (!parsed.success)
    throw new ApiError(
      `HTTP ${status}: unexpected response (${describeIssue(parsed.error, bare ? "" : "data")})`,
    );
  return data as { nlpResponse?: string | null; tokenDetails?: unknown[] | null };
}
