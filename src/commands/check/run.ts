import { PageCeilingError, type Requester } from "../../api/pager.js";
import { inPaymentOrder } from "../../api/pay-order.js";
import { type RecordQuery, type Selector, streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { identityOf } from "../../contract/identity.js";
import { CliError, RiskError, UsageError } from "../../errors.js";
import type { OutputFormat } from "../../flags/formats.js";
import type { FlagValues } from "../../flags/table.js";
import type { Column } from "../../output/columns.js";
import { createWriter } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import {
  AGENTS_JOIN,
  assessRisk,
  type RiskLevel,
  type RiskReason,
  reaches,
  reasonText,
} from "../../risk/rules.js";
import { FLAG_FOR, parseSelector } from "../data/flag-groups.js";
import { chooseFormat } from "../data/output.js";
import { estimateRequests } from "../data/run.js";
import { MARKET } from "../market/definition.js";
import { type AgentIndex, agentOf, agentsQuery, readAgents } from "./agents.js";
import type checkCommand from "./index.js";

type CheckOptions = FlagValues<typeof checkCommand.flags>;

// check: the tokens named are read from the market endpoint and from the agents endpoint (the
// service's own rug status), joined token by token, and judged by the risk rules; the verdicts are
// written as they come, then --fail-on decides the exit code.

/** One line of `check`'s output. */
export interface CheckRow {
  symbol: string | undefined;
  name: string | undefined;
  address: string | undefined;
  id: string | undefined;
  level: RiskLevel;
  reasons: RiskReason[];
  /** The agents endpoint's rug_status for the token; null when it does not know it or sends none. */
  rug_status: string | null;
  /** What the verdict could not read (a rule that did not apply, and why). */
  notes: string[];
}

const LEVEL_TONE = { low: "good", medium: "warn", high: "bad" } as const;

/** The note of a token the agents endpoint does not know, or knows without a rug_status. */
export const NOT_AN_AGENT = "not known to the agents endpoint: its rug-status rule did not apply";
export const NO_RUG_STATUS =
  "the agents endpoint sends no rug_status for it: its rug-status rule did not apply";

export async function runCheck(ctx: RunContext, opts: CheckOptions): Promise<void> {
  const { query, selector } = await checkQuery(ctx, opts);
  const format = await chooseFormat(ctx, opts);
  // Like market, whose records it reads: with --pay, each request pays for itself instead of the key.
  // Every request for the market has one for the agents beside it.
  const payment = await paymentOptions(ctx, opts);
  // Requests past the end cost nothing with a key, but each one is paid for without one (as the
  // data commands walk); the agents walk takes the same.
  if (payment) query.speculate = 1;
  const market = estimateRequests(query);
  const estimate = { ...market, requests: market.requests === undefined ? undefined : market.requests * 2 };
  const client = await ctx.client({ keyRequired: !payment, payment, estimate });
  if (payment?.dryRun) {
    const [{ planPayment }, { firstRequest }] = await Promise.all([
      import("../../payment/dry-run.js"),
      import("../../api/records.js"),
    ]);
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, firstRequest(query))}`);
    return;
  }
  // Paid, each walk pays its pages in order: a cap stops it at the first page it cannot pay.
  const walker = () => (payment ? inPaymentOrder(client) : client);
  const agents = readAgents(walker(), agentsQuery(query, selector)).catch((error: unknown) => {
    if (error instanceof CliError) error.message = `the agents endpoint (rug status): ${error.message}`;
    throw error;
  });
  agents.catch(() => {}); // awaited with the first market records; a failure is thrown there
  const { rows, missing } = await writeVerdicts(ctx, walker(), query, format, agents);
  endWithVerdict(ctx, opts.failOn as RiskLevel | undefined, rows, missing, selector);
}

/** The market query of the tokens named, on the chain given or set. */
async function checkQuery(
  ctx: RunContext,
  opts: CheckOptions,
): Promise<{ query: RecordQuery; selector: Selector }> {
  const chain = await ctx.settings.get("chain", opts.chain);
  if (chain === undefined) {
    throw new UsageError(
      "check: --chain is required (base or solana), or set a default with 'tokenintel config set chain base'",
    );
  }
  const selector = await parseSelector(
    ctx,
    { name: "check", selectors: MARKET.selectors, selectorRequired: true },
    opts,
  );
  if (!selector) throw new Error("check: parseSelector returned no list although one is required");
  const query: RecordQuery = {
    endpoint: MARKET.endpoint,
    query: [["chain", chain]],
    selector,
    window: ctx.settings.concurrency * 2,
    speculate: ctx.settings.concurrency,
    signal: ctx.signal,
    onRepeat: (note) => ctx.io.warn(note),
  };
  return { query, selector };
}

/** Judges the market records as they come, each with its agent record, and writes the verdicts. */
async function writeVerdicts(
  ctx: RunContext,
  client: Requester,
  query: RecordQuery,
  format: OutputFormat,
  agents: Promise<AgentIndex>,
): Promise<{ rows: CheckRow[]; missing: string[] }> {
  const structured = format === "json" || format === "ndjson";
  const writer = createWriter(format, ctx.io, { columns: () => COLUMNS, emptyMessage: "No tokens matched." });
  const rows: CheckRow[] = [];
  const result = { missing: [] as string[] };
  let ceiling: PageCeilingError | undefined;
  try {
    for await (const batch of streamRecords(client, query, result)) {
      const index = await agents;
      const judged = batch.map((record) => judge(record, index));
      rows.push(...judged);
      await writer.write(structured ? judged : judged.map(flatRow));
    }
    await agents; // a list the market knows none of: the agents' failure is still the run's
  } catch (error) {
    if (!(error instanceof PageCeilingError)) throw error;
    ceiling = error;
  }
  await writer.end();
  if (ceiling) throw ceiling;
  return { rows, missing: result.missing };
}

/** Exit 3 when a token reaches --fail-on's level; exit 1 when a token named had no data. */
function endWithVerdict(
  ctx: RunContext,
  floor: RiskLevel | undefined,
  rows: CheckRow[],
  missing: string[],
  selector: Selector,
): void {
  const failing = floor ? rows.filter((r) => reaches(r.level, floor)) : [];
  const noun = FLAG_FOR[selector.kind].slice(2);
  const missingNote = missing.length
    ? `no data for ${missing.length} of ${selector.items.length} ${noun}, so no verdict: ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ", …" : ""}`
    : undefined;
  if (failing.length) {
    if (missingNote) ctx.io.warn(missingNote);
    const names = failing.map((row) => row.symbol ?? row.address ?? row.id ?? "?").slice(0, 20);
    throw new RiskError(
      `${failingSubject(failing.length, selector.items.length)} at ${floor} risk or above (--fail-on ${floor}): ${names.join(", ")}${failing.length > 20 ? ", …" : ""}${missing.length ? `; no verdict for ${missing.length} without data` : ""}`,
    );
  }
  if (missingNote) throw new CliError(missingNote);
}

/**
 * Who fails, with its verb: "the token named is", "1 of the 2 tokens named is", "all 3 tokens named
 * are" (never "1 of the 1 token"); a ticker several tokens answer can make more than were named.
 */
export function failingSubject(failing: number, named: number): string {
  const verb = failing === 1 ? "is" : "are";
  if (failing > named) return `${failing} tokens matching the ${named} named ${verb}`;
  if (failing < named) return `${failing} of the ${named} tokens named ${verb}`;
  return named === 1 ? "the token named is" : `all ${named} tokens named are`;
}

/** A market record's verdict, its agent record's rug_status joined to it (the service's own word). */
function judge(record: unknown, agents: AgentIndex): CheckRow {
  const agent = agentOf(agents, record);
  const rugStatus = agent?.rugStatus ?? null;
  // Under `agents`, the agents endpoint's word alone: a field of that name the market server sent is
  // replaced. A rug_status of the market record's own is judged by its own rule, as before the join.
  const joined =
    record && typeof record === "object"
      ? { ...(record as object), [AGENTS_JOIN]: { rug_status: rugStatus } }
      : record;
  const verdict = assessRisk(joined);
  return {
    symbol: identityOf(record, "symbol"),
    name: identityOf(record, "name"),
    address: identityOf(record, "address"),
    id: identityOf(record, "id"),
    level: verdict.level,
    reasons: verdict.reasons,
    rug_status: rugStatus,
    notes: agent ? (rugStatus === null ? [NO_RUG_STATUS] : []) : [NOT_AN_AGENT],
  };
}

/** A row for a table or CSV: the reasons as one cell of text, the notes after them. */
function flatRow(row: CheckRow): Record<string, unknown> {
  const { notes, ...rest } = row;
  const text = [...row.reasons.map(reasonText), ...notes.map((n) => `note: ${n}`)];
  return { ...rest, reasons: text.join("; ") };
}

const COLUMNS: Column[] = [
  { header: "SYMBOL", paths: ["symbol"], format: "text", max: 12, min: 4 },
  { header: "ADDRESS", paths: ["address"], format: "address" },
  {
    header: "LEVEL",
    paths: ["level"],
    format: "text",
    compute: (record) => {
      const level = (record as CheckRow).level;
      return { text: level.toUpperCase(), tone: LEVEL_TONE[level] };
    },
  },
  // Wraps on a terminal (every reason readable in full); piped, one line a token.
  { header: "REASONS", paths: ["reasons"], format: "text", min: 12, wrap: true },
];
