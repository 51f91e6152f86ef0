import { PageCeilingError } from "../../api/pager.js";
import { type RecordQuery, streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { identityOf } from "../../contract/identity.js";
import { CliError, RiskError, UsageError } from "../../errors.js";
import type { FlagValues } from "../../flags/table.js";
import type { Column } from "../../output/columns.js";
import { createWriter } from "../../output/writers.js";
import { paymentOptions } from "../../payment/options.js";
import { assessRisk, type RiskLevel, type RiskReason, reaches, reasonText } from "../../risk/rules.js";
import { FLAG_FOR, parseSelector } from "../data/flag-groups.js";
import { chooseFormat } from "../data/output.js";
import { estimateRequests } from "../data/run.js";
import { MARKET } from "../market/definition.js";
import type checkCommand from "./index.js";

type CheckOptions = FlagValues<typeof checkCommand.flags>;

/** One line of `check`'s output. */
export interface CheckRow {
  symbol: string | undefined;
  name: string | undefined;
  address: string | undefined;
  id: string | undefined;
  level: RiskLevel;
  reasons: RiskReason[];
}

const LEVEL_TONE = { low: "good", medium: "warn", high: "bad" } as const;

export async function runCheck(ctx: RunContext, opts: CheckOptions): Promise<void> {
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
  const format = await chooseFormat(ctx, opts);

  const query: RecordQuery = {
    endpoint: MARKET.endpoint,
    query: [["chain", chain]],
    selector,
    window: ctx.settings.concurrency * 2,
    speculate: ctx.settings.concurrency,
    signal: ctx.signal,
    onRepeat: (note) => ctx.io.warn(note),
  };
  // Like market, whose records it reads: with --pay, each request pays for itself instead of the key.
  const payment = await paymentOptions(ctx, opts);
  const client = await ctx.client({ keyRequired: !payment, payment, estimate: estimateRequests(query) });
  if (payment?.dryRun) {
    const [{ planPayment }, { firstRequest }] = await Promise.all([
      import("../../payment/dry-run.js"),
      import("../../api/records.js"),
    ]);
    ctx.io.err(`tokenintel: ${await planPayment(client, ctx.payment!, firstRequest(query))}`);
    return;
  }
  const structured = format === "json" || format === "ndjson";
  const writer = createWriter(format, ctx.io, { columns: () => COLUMNS, emptyMessage: "No tokens matched." });
  const rows: CheckRow[] = [];
  const result = { missing: [] as string[] };
  let ceiling: PageCeilingError | undefined;
  try {
    for await (const batch of streamRecords(client, query, result)) {
      const judged = batch.map(judge);
      rows.push(...judged);
      await writer.write(structured ? judged : judged.map(flatRow));
    }
  } catch (error) {
    if (!(error instanceof PageCeilingError)) throw error;
    ceiling = error;
  }
  await writer.end();
  if (ceiling) throw ceiling;

  const floor = opts.failOn as RiskLevel | undefined;
  const failing = floor ? rows.filter((r) => reaches(r.level, floor)) : [];
  const noun = FLAG_FOR[selector.kind].slice(2);
  const missingNote = result.missing.length
    ? `no data for ${result.missing.length} of ${selector.items.length} ${noun}, so no verdict: ${result.missing.slice(0, 20).join(", ")}${result.missing.length > 20 ? ", …" : ""}`
    : undefined;
  if (failing.length) {
    if (missingNote) ctx.io.warn(missingNote);
    const names = failing.map((r) => r.symbol ?? r.address ?? r.id ?? "?").slice(0, 20);
    throw new RiskError(
      `${failingSubject(failing.length, selector.items.length)} at ${floor} risk or above (--fail-on ${floor}): ${names.join(", ")}${failing.length > 20 ? ", …" : ""}${result.missing.length ? `; no verdict for ${result.missing.length} without data` : ""}`,
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

function judge(record: unknown): CheckRow {
  const verdict = assessRisk(record);
  return {
    symbol: identityOf(record, "symbol"),
    name: identityOf(record, "name"),
    address: identityOf(record, "address"),
    id: identityOf(record, "id"),
    level: verdict.level,
    reasons: verdict.reasons,
  };
}

/** A row for a table or CSV: the reasons as one cell of text. */
function flatRow(row: CheckRow): Record<string, unknown> {
  return { ...row, reasons: row.reasons.map(reasonText).join("; ") };
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
