import { askDataSchema, describeIssue } from "../../api/schemas.js";
import { serverMessage } from "../../api/server-message.js";
import { ASK_TOKEN_DETAIL } from "../../contract/shapes.js";
import { ApiError } from "../../errors.js";
import { pickPaths } from "../../json/dot-paths.js";
import { checkPaths } from "../data/path-flags.js";

// What an ask answer is: its two forms on the wire, and what --fields selects of it.

/** An answer as read: the markdown text and the tokens it names (either may be absent or null). */
export interface AskData {
  nlpResponse?: string | null;
  tokenDetails?: unknown[] | null;
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
        ? data.tokenDetails.map((detail) => pickPaths(detail, fields))
        : (data.tokenDetails ?? null);
  }
  return out;
}

/**
 * The answer in either form it comes in: wrapped in `{success, data}` or bare
 * `{questionId, answerId, nlpResponse}` (the provider's docs); tokenDetails may be absent or null.
 */
export function answerOf(status: number, body: unknown): AskData {
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
  return data as AskData;
}
