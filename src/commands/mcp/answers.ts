import type { CallToolResult } from "@modelcontextprotocol/server";
import { AuthError, CliError, PaymentError, UsageError } from "../../errors.js";
import type { IO } from "../../io.js";
import { formatUnits } from "../../payment/amounts.js";
import type { PaymentTally } from "../../payment/session.js";
import { forAgent } from "./results.js";

// What a tool call answers: its value masked and bounded, as structured content and as text; an
// error in one line; what the call paid; ask's answer marked as the service's.

/** The most bytes one answer carries: far under the 10 MiB a client's stdio reader takes at most. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Every string of a value masked, as written (a key JSON-escaped in the data is masked too). */
function redactDeep(io: IO, value: unknown): unknown {
  if (typeof value === "string") return io.redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(io, v));
  if (value !== null && typeof value === "object" && !Object.hasOwn(value, "rawJSON"))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [io.redact(k), redactDeep(io, v)]));
  return value;
}

/**
 * A tool's answer: the structured value, and the same as compact JSON for clients that read text
 * only. Past MAX_ANSWER_BYTES, records are left off the end, and the answer says how many.
 */
export function answer(io: IO, value: Record<string, unknown>): CallToolResult {
  // Each string masked as written, then the text as a whole: a secret cannot survive in any field,
  // in any encoding. The structured value keeps its exact numbers (JSON.rawJSON) as they are.
  let structured = redactDeep(io, value) as Record<string, unknown>;
  let text = io.redact(JSON.stringify(structured));
  const records = structured.records;
  if (Buffer.byteLength(text) > MAX_ANSWER_BYTES && Array.isArray(records)) {
    const { next_cursor: _, ...rest } = structured;
    const notes = (rest.notes as string[] | undefined) ?? [];
    for (let kept = Math.floor(records.length / 2); ; kept = Math.floor(kept / 2)) {
      const cut = `${records.length - kept} of ${records.length} records left off: the answer would pass ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (ask for fewer fields or a smaller limit)`;
      structured = {
        ...rest,
        records: records.slice(0, kept),
        count: kept,
        more: true,
        notes: [...notes, cut],
      };
      text = io.redact(JSON.stringify(structured));
      if (kept === 0 || Buffer.byteLength(text) <= MAX_ANSWER_BYTES) break;
    }
  }
  return { content: [{ type: "text", text }], structuredContent: structured };
}

export function failure(io: IO, message: string, notes: string[] = []): CallToolResult {
  const lines = [message, ...notes.filter((n) => !message.includes(n))].map((l) => io.redact(l));
  return { content: [{ type: "text", text: lines.join("\n") }], isError: true };
}

/** The error a failed call answers with, or undefined when what was fetched stands (a note). */
export function isHardFailure(error: unknown, hasOutput: boolean): boolean {
  return (
    error instanceof UsageError ||
    error instanceof AuthError ||
    error instanceof PaymentError ||
    !(error instanceof CliError) ||
    !hasOutput
  );
}

/** A message that may quote the server: one line, no escape sequences. */
export function sanitizeMessage(message: string): string {
  return String(forAgent(message)).replace(/\s*\n\s*/g, " ");
}

/** What one call paid: the session's tally after, less before (paid calls run one at a time). */
export function costOf(
  before: PaymentTally | undefined,
  after: PaymentTally | undefined,
): { payments: number; amount: string; asset: string; network: string } | undefined {
  if (!after?.asset) return undefined;
  const payments = after.signed - (before?.signed ?? 0);
  if (payments === 0) return undefined;
  const amount = after.signedAmount - (before?.signedAmount ?? 0n);
  return {
    payments,
    amount: formatUnits(amount.toString(), after.asset.decimals),
    asset: after.asset.symbol,
    network: after.asset.networkName,
  };
}

/** ask's answer, with the service's text marked as the service's. */
export function askAnswer(value: unknown): Record<string, unknown> {
  const wrapped = value as { answer?: Record<string, unknown>; tokens?: unknown } | null;
  const data = (wrapped?.answer ?? wrapped ?? {}) as Record<string, unknown>;
  return {
    answer: { by: "service", text: typeof data.nlpResponse === "string" ? data.nlpResponse : "" },
    ...(data.questionId !== undefined ? { question_id: data.questionId } : {}),
    ...(data.answerId !== undefined ? { answer_id: data.answerId } : {}),
    ...(Array.isArray(data.tokenDetails) ? { token_details: data.tokenDetails } : {}),
    ...(wrapped?.answer && Array.isArray(wrapped.tokens) ? { tokens: wrapped.tokens } : {}),
  };
}
