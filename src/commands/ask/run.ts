import type { ApiClient } from "../../api/client.js";
import { askDataSchema, describeIssue } from "../../api/schemas.js";
import { serverMessage } from "../../api/server-message.js";
import type { RunContext } from "../../context.js";
import type { Chain } from "../../contract/api.js";
import { ENDPOINTS } from "../../contract/endpoints.js";
import { ASK_TOKEN_DETAIL } from "../../contract/shapes.js";
import { ApiError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import { pickPaths } from "../../json/dot-paths.js";
import { stringifyJson } from "../../json/exact.js";
import { columnsForPaths } from "../../output/columns.js";
import { createWriter, toCsv } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import { chooseFormat, warnTableOnly } from "../data/output.js";
import { checkPaths, pathListing } from "../data/path-flags.js";
import { ASK_COLUMNS } from "./columns.js";
import type { Grounding } from "./explain.js";
import type askCommand from "./index.js";

type AskOptions = FlagValues<typeof askCommand.flags>;

const MAX_QUESTION = 2000;

export async function runAsk(ctx: RunContext, questionArg: string, opts: AskOptions): Promise<void> {
  if (opts.fields === true) {
    // `--fields` alone: what it can name, one a line (like `gh ... --json` with no fields).
    await ctx.io.out(pathListing(ASK_TOKEN_DETAIL, [...ANSWER_KEYS, "tokenDetails"]));
    return;
  }
  const question = (questionArg === "-" ? await ctx.io.readInput("ask: '-'") : questionArg).trim();
  if (!question)
    throw new UsageError(
      `ask needs a question: tokenintel ask 'how is $AERO doing?' (or pipe it in with 'ask -')`,
    );
  if (question.length > MAX_QUESTION)
    throw new UsageError(`ask: the question is longer than ${MAX_QUESTION} characters`);
  const { chain } = opts;
  const format = await chooseFormat(ctx, opts);
  warnTableOnly(ctx, format, opts);
  if (opts.explain && format !== "table" && format !== "json" && format !== "ndjson")
    throw new UsageError(`ask --explain writes a table, JSON or NDJSON, not ${format}`);
  const selection = opts.fields ? askSelection(opts.fields) : undefined;
  const detailFields = selection?.detailFields;
  const chosen = checkPaths("--columns", opts.columns, ASK_TOKEN_DETAIL, "ask token details") ?? detailFields;

  const payment = await paymentOptions(ctx, opts);
  const client = await ctx.client({
    keyRequired: !payment,
    payment,
    // --explain asks the market for the tokens the answer names: more requests, not known yet.
    estimate: { requests: 1, exact: !opts.explain },
  });
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
  const details = data.tokenDetails ?? [];
  const grounding = opts.explain ? await explain(ctx, client, details, question, opts.chain) : undefined;

  if (format === "json" || format === "ndjson") {
    const answer = selection ? selectAnswer(data, selection) : data;
    const shown = grounding ? { answer, tokens: grounding } : answer;
    await ctx.io.outJson(`${stringifyJson(shown, format === "json" ? 2 : undefined)}\n`, format === "ndjson");
    return;
  }
  if (format === "csv") {
    const answer = selection ? pickPaths(data, selection.answerKeys) : {};
    const rows =
      !selection || selection.details ? details.map((d) => ({ ...answer, ...(d as object) })) : [answer];
    const fields =
      selection && selection.detailFields !== undefined
        ? [...selection.answerKeys, ...selection.detailFields]
        : undefined;
    await ctx.io.outServerText(toCsv(rows, fields, opts.crlf ? "\r\n" : "\n"));
    return;
  }
  if (selection) {
    for (const key of selection.answerKeys.filter((k) => k !== "nlpResponse")) {
      const value = (data as Record<string, unknown>)[key];
      if (value !== undefined && value !== null) await ctx.io.outServerText(`${key}: ${String(value)}\n`);
    }
  }
  if (!selection || selection.answerKeys.includes("nlpResponse")) {
    const [{ Chalk }, { renderMarkdown }] = await Promise.all([
      import("chalk"),
      import("../../output/markdown.js"),
    ]);
    const chalk = new Chalk({ level: ctx.io.color ? 1 : 0 });
    await ctx.io.out(`${renderMarkdown(data.nlpResponse ?? "(no answer text)", chalk)}\n`);
  }
  if (selection && !selection.details) return;
  const writer = createWriter(format, ctx.io, {
    columns: () =>
      chosen
        ? columnsForPaths(chosen, [...ASK_COLUMNS.columns, ...ASK_COLUMNS.wide])
        : opts.wide
          ? [...ASK_COLUMNS.columns, ...ASK_COLUMNS.wide]
          : ASK_COLUMNS.columns,
    emptyMessage: "No token details in this answer.",
  });
  await writer.write(details);
  await writer.end();
  if (grounding) {
    const { GROUNDING_COLUMNS } = await import("./explain.js");
    await ctx.io.out("\nMarket figures behind the answer:\n");
    const table = createWriter("table", ctx.io, {
      columns: () => GROUNDING_COLUMNS,
      emptyMessage: "(no tokens to look up)",
    });
    await table.write(grounding);
    await table.end();
  }
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

/** The answer's own keys --fields can name besides the token details' fields. */
export const ANSWER_KEYS = ["questionId", "answerId", "nlpResponse"] as const;

export interface AskSelection {
  /** Keys of the answer itself, in the order given. */
  answerKeys: string[];
  /** Whether the token details are shown at all. */
  details: boolean;
  /** The details' fields, or undefined for all of them (`tokenDetails` named whole). */
  detailFields: string[] | undefined;
}

/**
 * What `ask --fields` names, the same in every format: answer keys (nlpResponse, questionId,
 * answerId), `tokenDetails` whole, or fields of each token detail (`market_cap`, also written
 * `tokenDetails.market_cap`).
 */
export function askSelection(fields: readonly string[]): AskSelection {
  const answerKeys: string[] = [];
  const detailFields: string[] = [];
  let whole = false;
  for (const field of fields) {
    if ((ANSWER_KEYS as readonly string[]).includes(field)) answerKeys.push(field);
    else if (field === "tokenDetails") whole = true;
    else detailFields.push(field.replace(/^tokenDetails\./, ""));
  }
  checkPaths(
    "--fields",
    detailFields,
    ASK_TOKEN_DETAIL,
    `ask (its answer has ${ANSWER_KEYS.join(", ")}, tokenDetails)`,
  );
  return {
    answerKeys,
    details: whole || detailFields.length > 0,
    detailFields: whole ? undefined : detailFields,
  };
}

/** The answer with only what --fields names: JSON and NDJSON. */
export function selectAnswer(
  data: { tokenDetails?: unknown[] | null },
  selection: AskSelection,
): Record<string, unknown> {
  const out = pickPaths(data, selection.answerKeys);
  if (selection.details) {
    const fields = selection.detailFields;
    out.tokenDetails =
      data.tokenDetails && fields
        ? data.tokenDetails.map((d) => pickPaths(d, fields))
        : (data.tokenDetails ?? null);
  }
  return out;
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
