import { getPath } from "../json/dot-paths.js";
import { LosslessNumber } from "../json/exact.js";
import { compareDecimals, type DecimalParts, decimalParts, significant } from "../numbers/decimal.js";

// The risk rules, in one table: `tokenintel check` gives a level and its reasons from them, and a
// table's FLAGS column shows the same rules. Numbers are compared exactly from their digits, so a
// value at a threshold is at that level (50.00 reaches "at least 50"), and 49.999 is not.

export type RiskLevel = "low" | "medium" | "high";
export const RISK_LEVELS: readonly RiskLevel[] = ["low", "medium", "high"];

/** Where a record keeps its sections: market records (token_*) or agent records (agent_*). */
export interface RecordSections {
  holders: string;
  metrics: string;
}
export const MARKET_SECTIONS: RecordSections = { holders: "token_holder_insights", metrics: "token_metrics" };
export const AGENT_SECTIONS: RecordSections = { holders: "agent_holder_insights", metrics: "agent_metrics" };

/** One threshold rule: a value at or past `medium` is medium, at or past `high` is high. */
export interface ThresholdRule {
  id: "dev_sold" | "bundled" | "top10" | "holders_falling" | "liquidity";
  label: string;
  /** What is compared, for the help's table. */
  measure: string;
  /** "at least" (>=) or "at most" (<=), or "below" (<) for the liquidity share. */
  direction: ">=" | "<=" | "<";
  medium: string;
  high: string;
}

export const THRESHOLDS: readonly ThresholdRule[] = [
  {
    id: "dev_sold",
    label: "dev sold",
    measure: "dev_wallet_insights.dev_sold_percentage, when dev_sold is true",
    direction: ">=",
    medium: "0",
    high: "25",
  },
  {
    id: "bundled",
    label: "bundled supply",
    measure: "dev_wallet_insights.bundle_wallet_supply_percentage",
    direction: ">=",
    medium: "5",
    high: "15",
  },
  {
    id: "top10",
    label: "top-10 holding",
    measure: "token_holder_insights.top_10_holder_percentage",
    direction: ">=",
    medium: "50",
    high: "80",
  },
  {
    id: "holders_falling",
    label: "holder count falling",
    measure: "token_holder_insights.holder_count_change_percentage_24h",
    direction: "<=",
    medium: "-5",
    high: "-20",
  },
  {
    id: "liquidity",
    label: "liquidity against market cap",
    measure: "100 × token_metrics.total_liquidity / token_metrics.mcap",
    direction: "<",
    medium: "5",
    high: "1",
  },
];

/** The rules a table's FLAGS column shows, by rule label, and its word for each. */
export const RISK_FLAG_RULES: Record<string, { text: string; share: boolean }> = {
  "dev sold": { text: "DEV SOLD", share: true },
  "bundled supply": { text: "BUNDLED", share: true },
  "top-10 holding": { text: "TOP10", share: true },
  "fresh dev wallet": { text: "FRESH DEV", share: false },
};

/** rug_status words that say nothing is wrong, and those that say the worst; any other word is medium. */
export const RUG_STATUS_SAFE = ["SAFE", "LOW", "LOW_RISK", "NONE", "OK", "CLEAN", "NO"];
export const RUG_STATUS_HIGH = ["HIGH", "HIGH_RISK", "RUG", "RUGGED", "RUG_PULL", "SCAM", "DANGER"];

export interface RiskReason {
  level: Exclude<RiskLevel, "low">;
  rule: string;
  /** The field the reason rests on. */
  field: string;
  /** Its value as the service sent it (for the liquidity rule: the share, computed), digits only. */
  value: string;
  /** The value's unit: "%" for the percentage rules (every threshold rule), null for the others. */
  unit: "%" | null;
  /** The threshold it reached, e.g. ">= 15". */
  threshold: string;
}

/** A reason in words: `dev sold: dev_wallet_insights.dev_sold_percentage=45.2 (high at >= 25)`. */
export function reasonText(r: RiskReason): string {
  return `${r.rule}: ${r.field}=${r.value}${r.unit ?? ""} (${r.level} at ${r.threshold})`;
}

export interface RiskVerdict {
  level: RiskLevel;
  reasons: RiskReason[];
}

const RULE = Object.fromEntries(THRESHOLDS.map((r) => [r.id, r])) as Record<
  ThresholdRule["id"],
  ThresholdRule
>;

function shown(value: unknown): string {
  if (value instanceof LosslessNumber) return value.raw;
  return typeof value === "string" ? value : String(value);
}

/** The level a value reaches under a rule, or undefined when it reaches none. */
export function levelFor(rule: ThresholdRule, value: DecimalParts): Exclude<RiskLevel, "low"> | undefined {
  const reaches = (threshold: string) => {
    const c = compareDecimals(value, decimalParts(threshold)!);
    return rule.direction === ">=" ? c >= 0 : rule.direction === "<=" ? c <= 0 : c < 0;
  };
  if (reaches(rule.high)) return "high";
  if (reaches(rule.medium)) return "medium";
  return undefined;
}

function thresholdText(rule: ThresholdRule, level: Exclude<RiskLevel, "low">): string {
  if (rule.id === "dev_sold" && level === "medium") return "dev_sold = true";
  return `${rule.direction} ${level === "high" ? rule.high : rule.medium}`;
}

/** Exact value × 10^scale as an integer (digits past the scale dropped). */
function scaled(parts: DecimalParts, scale: number): bigint {
  const digits = BigInt(parts.int + parts.frac.padEnd(scale, "0").slice(0, scale));
  return parts.negative ? -digits : digits;
}

/** 100 × liquidity / mcap as exact decimal parts (30 fraction digits), or undefined without both. */
export function liquidityShare(liquidity: unknown, mcap: unknown): DecimalParts | undefined {
  const l = decimalParts(liquidity);
  const m = decimalParts(mcap);
  if (!l || !m || m.negative || l.negative) return undefined;
  const scale = 40;
  const denominator = scaled(m, scale);
  if (denominator === 0n) return undefined;
  const digits = 30;
  const q = (scaled(l, scale) * 100n * 10n ** BigInt(digits)) / denominator;
  const text = q.toString().padStart(digits + 1, "0");
  return decimalParts(`${text.slice(0, -digits)}.${text.slice(-digits)}`);
}

/**
 * The liquidity share as a reason gives it: 4 significant digits, rounded half up, at least 2
 * places (0.008866, 3.457, 45.12): a share below 0.01% is not "0", which a script reads as none.
 * More digits when 4 would round it onto the threshold it is below (4.99995, not 5.00, at < 5).
 */
function shareText(share: DecimalParts, level: Exclude<RiskLevel, "low">): string {
  for (let digits = 4; digits < 40; digits++) {
    const text = significant(share, digits, 2);
    if (levelFor(RULE.liquidity, decimalParts(text)!) === level) return text;
  }
  return significant(share, 40, 2);
}

/** The level of one record and every reason for it, in the order of the rules. */
export function assessRisk(record: unknown, sections: RecordSections = MARKET_SECTIONS): RiskVerdict {
  const reasons: RiskReason[] = [];
  const threshold = (rule: ThresholdRule, field: string, value: unknown) => {
    const parts = decimalParts(value);
    if (!parts) return;
    const level = levelFor(rule, parts);
    if (level)
      reasons.push({
        level,
        rule: rule.label,
        field,
        value: shown(value),
        unit: "%",
        threshold: thresholdText(rule, level),
      });
  };

  if (getPath(record, "dev_wallet_insights.dev_sold") === true) {
    const field = "dev_wallet_insights.dev_sold_percentage";
    const value = getPath(record, field);
    const parts = decimalParts(value);
    const rule = RULE.dev_sold;
    // A dev who sold is at least medium, whatever share is given (or when none is).
    const level = parts ? (levelFor(rule, parts) ?? "medium") : "medium";
    reasons.push({
      level,
      rule: rule.label,
      field: parts ? field : "dev_wallet_insights.dev_sold",
      value: parts ? shown(value) : "true",
      unit: parts ? "%" : null,
      threshold: parts ? thresholdText(rule, level) : "dev_sold = true",
    });
  }
  threshold(
    RULE.bundled,
    "dev_wallet_insights.bundle_wallet_supply_percentage",
    getPath(record, "dev_wallet_insights.bundle_wallet_supply_percentage"),
  );
  const top10 = `${sections.holders}.top_10_holder_percentage`;
  threshold(RULE.top10, top10, getPath(record, top10));
  if (getPath(record, "dev_wallet_insights.fresh_wallet") === true) {
    reasons.push({
      level: "medium",
      rule: "fresh dev wallet",
      field: "dev_wallet_insights.fresh_wallet",
      value: "true",
      unit: null,
      threshold: "= true",
    });
  }
  const falling = `${sections.holders}.holder_count_change_percentage_24h`;
  threshold(RULE.holders_falling, falling, getPath(record, falling));

  const liquidityPath = `${sections.metrics}.total_liquidity`;
  const mcapPath =
    [`${sections.metrics}.mcap`, `${sections.metrics}.market_cap_usd`].find(
      (path) => getPath(record, path) !== undefined,
    ) ?? `${sections.metrics}.mcap`;
  const share = liquidityShare(getPath(record, liquidityPath), getPath(record, mcapPath));
  if (share) {
    const level = levelFor(RULE.liquidity, share);
    if (level)
      reasons.push({
        level,
        rule: RULE.liquidity.label,
        field: `${liquidityPath}/${mcapPath}`,
        value: shareText(share, level),
        unit: "%",
        threshold: thresholdText(RULE.liquidity, level),
      });
  }

  const status = getPath(record, "rug_status");
  if (typeof status === "string" && status.trim() !== "") {
    const word = status.trim().toUpperCase();
    if (!RUG_STATUS_SAFE.includes(word)) {
      const high = RUG_STATUS_HIGH.includes(word);
      reasons.push({
        level: high ? "high" : "medium",
        rule: "rug status",
        field: "rug_status",
        value: status,
        unit: null,
        threshold: high ? RUG_STATUS_HIGH.join("|") : `not ${RUG_STATUS_SAFE.join("|")}`,
      });
    }
  }

  const level = reasons.some((r) => r.level === "high") ? "high" : reasons.length > 0 ? "medium" : "low";
  return { level, reasons };
}

/** Whether `level` is at or above `floor`. */
export function reaches(level: RiskLevel, floor: RiskLevel): boolean {
  return RISK_LEVELS.indexOf(level) >= RISK_LEVELS.indexOf(floor);
}

/** The thresholds as a plain-text table, for `check --help` (and the README). */
export function thresholdTable(): string {
  const rows: string[][] = [["rule", "field", "medium", "high"]];
  const word = (rule: ThresholdRule, t: string) =>
    `${rule.direction === ">=" ? ">=" : rule.direction === "<=" ? "<=" : "<"} ${t}`;
  for (const rule of THRESHOLDS) {
    const medium = rule.id === "dev_sold" ? "dev_sold = true" : word(rule, rule.medium);
    rows.push([rule.label, rule.measure, medium, word(rule, rule.high)]);
  }
  rows.push(["fresh dev wallet", "dev_wallet_insights.fresh_wallet", "= true", "-"]);
  rows.push([
    "rug status",
    "rug_status (when sent)",
    `not ${RUG_STATUS_SAFE.slice(0, 2).join("/")}…`,
    RUG_STATUS_HIGH.slice(0, 2).join("/") + "…",
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
