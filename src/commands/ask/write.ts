import type { RunContext } from "../../context.js";
import type { OutputFormat } from "../../flags/formats.js";
import { pickPaths } from "../../json/dot-paths.js";
import { stringifyJson } from "../../json/exact.js";
import { columnsForPaths } from "../../output/columns.js";
import { createWriter, toCsv } from "../../output/writers.js";
import type { AskData, AskSelection } from "./answer.js";
import { selectAnswer } from "./answer.js";
import { ASK_COLUMNS } from "./columns.js";
import type { Grounding } from "./explain.js";

// An ask answer written out in the format chosen: JSON and NDJSON as the answer (with the
// grounding under --explain), CSV a row per token detail, a table the answer's markdown rendered,
// then its token details and the grounding's figures.

/** What shapes an answer's output besides its format. */
export interface AnswerView {
  /** What --fields selects, in every format. */
  selection: AskSelection | undefined;
  /** --explain's figures, when asked for. */
  grounding: Grounding[] | undefined;
  /** The token details' columns --columns (or --fields) names. */
  chosen: string[] | undefined;
  wide: boolean | undefined;
  crlf: boolean | undefined;
}

export async function writeAnswer(
  ctx: RunContext,
  format: OutputFormat,
  data: AskData,
  view: AnswerView,
): Promise<void> {
  if (format === "json" || format === "ndjson") return writeJson(ctx, format, data, view);
  if (format === "csv") return writeCsv(ctx, data, view);
  await writeText(ctx, data, view);
  if (view.selection && !view.selection.details) return;
  await writeDetails(ctx, data.tokenDetails ?? [], view);
}

async function writeJson(ctx: RunContext, format: "json" | "ndjson", data: AskData, view: AnswerView) {
  const answer = view.selection ? selectAnswer(data, view.selection) : data;
  const shown = view.grounding ? { answer, tokens: view.grounding } : answer;
  await ctx.io.outJson(`${stringifyJson(shown, format === "json" ? 2 : undefined)}\n`, format === "ndjson");
}

async function writeCsv(ctx: RunContext, data: AskData, { selection, crlf }: AnswerView) {
  const details = data.tokenDetails ?? [];
  const answer = selection ? pickPaths(data, selection.answerKeys) : {};
  const rows =
    !selection || selection.details ? details.map((d) => ({ ...answer, ...(d as object) })) : [answer];
  const fields =
    selection && selection.detailFields !== undefined
      ? [...selection.answerKeys, ...selection.detailFields]
      : undefined;
  await ctx.io.outServerText(toCsv(rows, fields, crlf ? "\r\n" : "\n"));
}

/** The answer keys --fields names as lines, then the answer's markdown rendered. */
export async function writeText(
  ctx: RunContext,
  data: AskData,
  { selection }: Pick<AnswerView, "selection">,
) {
  if (selection) {
    for (const key of selection.answerKeys.filter((answerKey) => answerKey !== "nlpResponse")) {
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
    // On a terminal the lines break between words at its width; piped, the reader lays them out.
    const width = ctx.io.stdoutIsTTY ? ctx.io.columns : undefined;
    await ctx.io.out(`${renderMarkdown(data.nlpResponse ?? "(no answer text)", chalk, width)}\n`);
  }
}

/** The token details as a table, then --explain's figures under them. */
async function writeDetails(ctx: RunContext, details: unknown[], view: AnswerView) {
  const { chosen, grounding } = view;
  const all = [...ASK_COLUMNS.columns, ...ASK_COLUMNS.wide];
  const writer = createWriter("table", ctx.io, {
    columns: () => (chosen ? columnsForPaths(chosen, all) : view.wide ? all : ASK_COLUMNS.columns),
    emptyMessage: "No token details in this answer.",
  });
  await writer.write(details);
  await writer.end();
  if (!grounding) return;
  const { GROUNDING_COLUMNS } = await import("./explain.js");
  await ctx.io.out("\nMarket figures behind the answer:\n");
  const table = createWriter("table", ctx.io, {
    columns: () => GROUNDING_COLUMNS,
    emptyMessage: "(no tokens to look up)",
  });
  await table.write(grounding);
  await table.end();
}
