import type { RunContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { back, notInGrammar, readWhen } from "../../flags/durations.js";
import type { OutputFormat } from "../../flags/formats.js";
import type { FlagValues } from "../../flags/table.js";
import type { Column } from "../../output/columns.js";
import { createWriter } from "../../output/writers.js";
import { ledgerFile, PaymentLedger } from "../../payment/ledger.js";
import { fixedAmount } from "../../payment/ledger-lines.js";
import { chooseFormat as chooseDataFormat } from "../data/output.js";
import type { PAYMENTS_FLAGS } from "./index.js";
import { type DayTotal, dailyTotals, joinOutcomes, type PaymentRecord } from "./records.js";

// `tokenintel payments`: the ledger read back, one record a payment signed (its outcome joined to
// it by nonce), or per-day totals per network; in a table by default, or JSON, NDJSON, CSV.

type PaymentsOptions = FlagValues<typeof PAYMENTS_FLAGS>;

/** The earliest moment a JavaScript date holds. */
const EARLIEST = -8.64e15;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * --since in the grammar every duration flag reads (flags/durations.ts): a span back from `now`
 * (30m, 24h, 7d, 6mo, 1y), a UTC date (2026-01-31), or an ISO time.
 */
export function parseSince(text: string, now: number): number {
  const value = text.trim();
  if (ISO_TIME.test(value)) {
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return at;
  }
  const when = readWhen("--since", text);
  if (when?.kind === "date") return when.ms;
  if (when?.kind === "span") {
    const at = back(now, when);
    // Past the first moment a date can hold (271,821 BC), every payment is since then.
    return at >= EARLIEST ? at : EARLIEST;
  }
  throw new UsageError(`--since: ${notInGrammar(text, "a date (YYYY-MM-DD) or an ISO time")}`);
}

/** As every command chooses (a table on a terminal, JSON into a pipe, or the config's), --csv too. */
async function chooseFormat(ctx: RunContext, opts: PaymentsOptions): Promise<OutputFormat> {
  if (opts.csv && (opts.output ?? (opts.json ? "json" : opts.ndjson ? "ndjson" : "csv")) !== "csv")
    throw new UsageError("conflicting output flags (--csv and another format); choose one");
  return opts.csv ? "csv" : chooseDataFormat(ctx, opts);
}

const text = (value: string) => ({ text: value });
const shortAddress = (address: string) =>
  address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
/** "2026-11-25 04:40:12" (UTC): a ledger is read as a statement, not as "3m ago". */
const when = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
const cell =
  (fn: (r: PaymentRecord) => string): Column["compute"] =>
  (record) =>
    text(fn(record as PaymentRecord));

const PAYMENT_COLUMNS: Column[] = [
  { header: "when (UTC)", paths: ["at"], format: "text", compute: cell((payment) => when(payment.at)) },
  {
    header: "what",
    paths: ["endpoint"],
    format: "text",
    max: 48,
    min: 12,
    compute: cell((payment) => {
      const url = URL.canParse(payment.endpoint) ? new URL(payment.endpoint) : undefined;
      const path = url ? `${url.pathname}${url.search}` : payment.endpoint;
      return payment.label ? `${payment.label}: ${path}` : path;
    }),
  },
  { header: "network", paths: ["network"], format: "text" },
  {
    header: "amount",
    paths: ["amount"],
    format: "text",
    compute: cell((payment) => `${payment.amount} ${payment.symbol}`),
  },
  { header: "to", paths: ["payTo"], format: "text", compute: cell((payment) => shortAddress(payment.payTo)) },
  {
    header: "outcome",
    paths: ["outcome"],
    format: "text",
    compute: (record) => {
      const r = record as PaymentRecord;
      const tx = r.transaction ? ` ${shortAddress(r.transaction)}` : "";
      const tone = r.outcome === "settled" ? "good" : r.outcome === "refused" ? "bad" : "warn";
      return { text: `${r.outcome}${tx}`, tone };
    },
  },
];

/** An exact amount as the ledger writes it ("0.005000"), right-aligned as numbers are. */
const exactAmount = (header: string, field: "signed" | "settled"): Column => ({
  header,
  paths: [field],
  format: "amount",
  compute: (record) => text((record as DayTotal)[field]),
});

const DAY_COLUMNS: Column[] = [
  { header: "day (UTC)", paths: ["day"], format: "text" },
  { header: "network", paths: ["network"], format: "text" },
  { header: "payments", paths: ["payments"], format: "int" },
  exactAmount("signed", "signed"),
  exactAmount("settled", "settled"),
  { header: "asset", paths: ["symbol"], format: "text" },
];

const CSV_FIELDS = {
  payments: [
    "at",
    "network",
    "symbol",
    "amount",
    "payTo",
    "outcome",
    "transaction",
    "endpoint",
    "label",
    "from",
    "nonce",
    "validAfter",
    "validBefore",
    "x402Version",
    "reason",
    "command",
  ],
  days: ["day", "network", "symbol", "payments", "signed", "settled"],
};

export async function runPayments(ctx: RunContext, opts: PaymentsOptions): Promise<void> {
  const format = await chooseFormat(ctx, opts);
  const now = Date.now();
  const since = opts.since !== undefined ? parseSince(opts.since, now) : undefined;
  const sandbox = Boolean(ctx.settings.globals.sandbox);
  const file = ledgerFile(ctx.io.env, sandbox);
  if (sandbox)
    ctx.io.info(`tokenintel: the sandbox's payments (--sandbox), apart from the real ledger: ${file}`);
  const payments = readPayments(ctx, file, since);
  const records = opts.byDay ? dailyTotals(payments, (atomic) => fixedAmount(atomic, 6)) : payments;
  const sinceText = since === undefined ? "" : ` since ${new Date(since).toISOString()}`;
  const empty = `tokenintel: no payments recorded${sinceText} (ledger: ${file})`;
  // Where the payments shown were read from; an empty answer says it in its own line.
  if (records.length > 0 && !sandbox) ctx.io.info(`tokenintel: payments from the ledger ${file}`);
  const writer = createWriter(format, ctx.io, {
    columns: () => (opts.byDay ? DAY_COLUMNS : PAYMENT_COLUMNS),
    fields: format === "csv" ? CSV_FIELDS[opts.byDay ? "days" : "payments"] : undefined,
    emptyMessage: empty,
  });
  await writer.write(records);
  await writer.end();
  if (records.length > 0) return;
  // A table says it is empty; JSON, NDJSON and CSV print an empty answer and say it here.
  if (format !== "table") ctx.io.info(empty);
  const other = otherLedger(ctx, !sandbox, since);
  if (other) ctx.io.info(other);
}

/** The ledger's payments since then (all without `since`); lines that cannot be read are named. */
function readPayments(ctx: RunContext, file: string, since: number | undefined): PaymentRecord[] {
  const { lines, damaged, damagedSigned } = new PaymentLedger(file).readAll();
  if (damaged > 0) {
    const signed = damagedSigned
      ? ` (${damagedSigned} of them signed payments: the daily cap counts what it can read of them, and pays no more while it cannot read an amount)`
      : "";
    ctx.io.warn(
      `${damaged} line${damaged === 1 ? "" : "s"} of the payment ledger ${file} could not be read (not whole) and ${damaged === 1 ? "is" : "are"} left out${signed}`,
    );
  }
  return joinOutcomes(lines).filter((payment) => since === undefined || Date.parse(payment.at) >= since);
}

/**
 * Where the payments went when this ledger has none: the other ledger's count since then (runs with
 * --sandbox record apart from the real ones), and the command that lists them; undefined when it
 * has none too, or cannot be read (that ledger's own listing says why).
 */
function otherLedger(ctx: RunContext, sandbox: boolean, since: number | undefined): string | undefined {
  const file = ledgerFile(ctx.io.env, sandbox);
  let count: number;
  try {
    count = joinOutcomes(new PaymentLedger(file).readAll().lines).filter(
      (payment) => since === undefined || Date.parse(payment.at) >= since,
    ).length;
  } catch {
    return undefined;
  }
  if (count === 0) return undefined;
  const made = `${count} payment${count === 1 ? "" : "s"} made ${sandbox ? "with" : "without"} --sandbox`;
  const lists = sandbox ? "'tokenintel payments --sandbox'" : "'tokenintel payments' (without --sandbox)";
  return `tokenintel: ${made} ${count === 1 ? "is" : "are"} recorded apart, in ${file}: ${lists} lists them`;
}
