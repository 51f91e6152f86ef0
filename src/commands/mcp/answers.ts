import type { CallToolResult } from "@modelcontextprotocol/server";
import { AuthError, CliError, PaymentError, UsageError } from "../../errors.js";
import type { IO } from "../../io.js";
import { formatUnits } from "../../payment/amounts.js";
import type { PaymentTally } from "../../payment/session.js";
import { forAgent } from "./results.js";

// What a tool call answers: its value masked and bounded, as structured content and as text; an
// error in one line; what the call paid; ask's answer marked as the service's.

/** The most bytes one answer carries: far under the 10 MiB a client's stdio reader takes at most. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** What the records of an answer may take of it; the rest is for its notes and the envelope. */
const RECORDS_BUDGET = MAX_ANSWER_BYTES - 64 * 1024;

/** Every string of a value masked, as written (a key JSON-escaped in the data is masked too). */
function redactDeep(io: IO, value: unknown): unknown {
  if (typeof value === "string") return io.redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(io, v));
  if (value !== null && typeof value === "object" && !Object.hasOwn(value, "rawJSON"))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [io.redact(key), redactDeep(io, item)]),
    );
  return value;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");

/**
 * The records that fit in one answer, from the first: those past the budget are left for the
 * cursor (the walk keeps them), and the note says so. One record always goes, whatever its size
 * (answer() then cuts inside it).
 */
export function fitRecords(records: unknown[]): { records: unknown[]; cut: string | undefined } {
  let total = 2;
  for (let i = 0; i < records.length; i++) {
    total += bytesOf(records[i]) + 1;
    if (total > RECORDS_BUDGET && i > 0)
      return {
        records: records.slice(0, i),
        cut: `${records.length - i} of ${records.length} records left for next_cursor: the answer would pass ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (ask for fewer fields or a smaller limit)`,
      };
  }
  return { records, cut: undefined };
}

/**
 * A tool's answer: the structured value, and the same as compact JSON for clients that read text
 * only. Past MAX_ANSWER_BYTES, the largest list in it (records, an ask's token details, a history's
 * days, a record's own lists) is cut, again until it fits, each cut said in the notes.
 */
export function answer(io: IO, value: Record<string, unknown>): CallToolResult {
  // Each string masked as written, then the text as a whole: a secret cannot survive in any field,
  // in any encoding. The structured value keeps its exact numbers (JSON.rawJSON) as they are.
  const structured = redactDeep(io, value) as Record<string, unknown>;
  let text = io.redact(JSON.stringify(structured));
  if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) {
    const cuts = boundLists(structured, MAX_ANSWER_BYTES - 16 * 1024);
    if (cuts.length) {
      if (Array.isArray(structured.records) && structured.count !== undefined)
        structured.count = structured.records.length;
      structured.notes = [...((structured.notes as string[] | undefined) ?? []), ...cuts];
    }
    text = io.redact(JSON.stringify(structured));
  }
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/** A list inside an answer, where it sits. */
interface Found {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  path: string;
  list: unknown[];
  bytes: number;
}

/** The largest lists of a value, by their JSON size, down to a depth (a hostile nesting is bounded). */
function largestList(value: unknown, path = "", depth = 0): Found | undefined {
  if (depth > 8 || value === null || typeof value !== "object" || Object.hasOwn(value, "rawJSON"))
    return undefined;
  let best: Found | undefined;
  const consider = (holder: Found["holder"], key: string | number, child: unknown, at: string) => {
    if (Array.isArray(child) && child.length > 0) {
      const bytes = bytesOf(child);
      if (!best || bytes > best.bytes) best = { holder, key, path: at, list: child, bytes };
    }
    const inner = largestList(child, at, depth + 1);
    if (inner && (!best || inner.bytes > best.bytes)) best = inner;
  };
  if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) consider(value, i, value[i], `${path}[${i}]`);
  else
    for (const [key, child] of Object.entries(value))
      consider(value as Record<string, unknown>, key, child, path ? `${path}.${key}` : key);
  return best;
}

/** Cuts the largest lists until the value fits in `budget` bytes; what each cut left off, in words. */
function boundLists(value: Record<string, unknown>, budget: number): string[] {
  const cuts = new Map<string, { from: number; to: number }>();
  for (let size = bytesOf(value); size > budget; size = bytesOf(value)) {
    let found = largestList(value);
    if (!found) break;
    let kept = keepable(found, size - budget);
    // A list whose first item alone is too large: cut inside that item instead of dropping it.
    for (let inner = largestList(found.list[0], `${found.path}[0]`); kept === 0 && inner; ) {
      found = inner;
      kept = keepable(found, size - budget);
      inner = largestList(found.list[0], `${found.path}[0]`);
    }
    const shorter = found.list.slice(0, kept);
    if (Array.isArray(found.holder)) found.holder[found.key as number] = shorter;
    else found.holder[found.key as string] = shorter;
    cuts.set(found.path, { from: cuts.get(found.path)?.from ?? found.list.length, to: kept });
  }
  return [...cuts].map(
    ([path, { from, to }]) =>
      `${path}: ${from - to} of ${from} items left off: the answer would pass ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`,
  );
}

/** How many items from the start of a list fit once `over` bytes are gone (fewer than it has). */
function keepable(found: Found, over: number): number {
  const room = found.bytes - over;
  let kept = 0;
  for (let total = 2; kept < found.list.length - 1; kept++) {
    total += bytesOf(found.list[kept]) + 1;
    if (total > room) break;
  }
  return kept;
}

export function failure(io: IO, message: string, notes: string[] = []): CallToolResult {
  const lines = [message, ...notes.filter((n) => !message.includes(n))].map((line) => io.redact(line));
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
