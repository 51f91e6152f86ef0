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
  const body = res.body as { success?: unknown; data?: unknown } | undefined;
  if (!body || typeof body !== "object")
    throw new ApiError(`HTTP ${res.status}: unexpected response (not a JSON object)`);
  if (body.success === false) {
    const detail = serverMessage(body);
    throw new ApiError(`HTTP ${res.status}: the server reported a failure${detail ? `: ${detail}` : ""}`);
  }
  const parsed = askDataSchema().safeParse(body.data);
  if (!parsed.success)
    throw new ApiError(`HTTP ${res.status}: unexpected response (${describeIssue(parsed.error, "data")})`);
  const data = body.data as { nlpResponse?: string | null; tokenDetails?: unknown[] | null };
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
