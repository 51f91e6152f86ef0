import { getPath } from "../json/dot-paths.js";
import { LosslessNumber } from "../json/exact.js";
import { compareDecimals, type DecimalParts, decimalParts, significant } from "../numbers/decimal.js";

// The risk rules, as one table of data that one small reader applies: `tokenintel check` gives a
// level and its reasons from them, and a table's FLAGS column shows the same rules. Numbers are
// compared exactly from their digits, so a value at a threshold is at that level (50.00 reaches
// "at least 50"), and 49.999 is not.

export type RiskLevel = "low" | "medium" | "high";
export const RISK_LEVELS: readonly RiskLevel[] = ["low", "medium", "high"];
type Level = Exclude<RiskLevel, "low">;

/** Where a record keeps its sections: market records (token_*) or agent records (agent_*). */
export interface RecordSections {
  holders: string;
  metrics: string;
}
export const MARKET_SECTIONS: RecordSections = { holders: "token_holder_insights", metrics: "token_metrics" };
export const AGENT_SECTIONS: RecordSections = { holders: "agent_holder_insights", metrics: "agent_metrics" };

/**
 * A field a rule reads, by its dot path; a path starting with `holders.` or `metrics.` is in that
 * section of the record, whose name depends on the record's kind (RecordSections).
 */
type FieldPath = string;

/** What every rule has: its id, its name in a reason, and what it reads in words, for the help. */
interface RuleBase {
  id: string;
  label: string;
  /** What is read, in the help's table. */
  measure: string;
}

/** A number compared with two thresholds: at or past `medium` it is medium, at or past `high`, high. */
export interface ThresholdRule extends RuleBase {
  id: "dev_sold" | "bundled" | "top10" | "holders_falling" | "liquidity";
  /** "at least" (>=) or "at most" (<=), or "below" (<) for the liquidity share. */
  direction: ">=" | "<=" | "<";
  medium: string;
  high: string;
}

/**
 * How each rule reads its value:
 * - number: a percentage in one field; with `when`, only once that field is true, and then at
 *   least medium (the threshold's words then being the gate's), the number given or not.
 * - share: 100 × one field / the first of `per` the record has, computed exactly.
 * - flag: a field that is true (the boolean, not the text) gives `level`.
 * - words: a text field, trimmed and in capitals, looked up in `levels`; a word in none of them
 *   is `otherwise` (no level when that is undefined), a word of `safe` never has one.
 */
export type RiskRule =
  | (ThresholdRule & { read: "number"; field: FieldPath; when?: { field: FieldPath; threshold: string } })
  | (ThresholdRule & { read: "share"; field: FieldPath; per: readonly FieldPath[] })
  | (RuleBase & { read: "flag"; field: FieldPath; level: Level; threshold: string })
  | (RuleBase & {
      read: "words";
      field: FieldPath;
      levels: Partial<Record<Level, readonly string[]>>;
      safe: readonly string[];
      otherwise?: Level;
      /** The help's columns for medium and high. */
      help: [string, string];
    });

/** rug_status words that say nothing is wrong, and those that say the worst; any other word is medium. */
export const RUG_STATUS_SAFE = ["SAFE", "LOW", "LOW_RISK", "NONE", "OK", "CLEAN", "NO"];
export const RUG_STATUS_HIGH = ["HIGH", "HIGH_RISK", "RUG", "RUGGED", "RUG_PULL", "SCAM", "DANGER"];
/** rug_status words that say to take care: at least medium. */
export const RUG_STATUS_MEDIUM = ["CAUTION"];
/** Where `check` puts what the agents endpoint says of a token, in the record it judges. */
export const AGENTS_JOIN = "agents";

/** The rules, in the order a verdict gives its reasons. */
export const RISK_RULES: readonly RiskRule[] = [
  {
    id: "dev_sold",
    read: "number",
    label: "dev sold",
    measure: "dev_wallet_insights.dev_sold_percentage, when dev_sold is true",
    field: "dev_wallet_insights.dev_sold_percentage",
    when: { field: "dev_wallet_insights.dev_sold", threshold: "dev_sold = true" },
    direction: ">=",
    medium: "0",
    high: "25",
  },
  {
    id: "bundled",
    read: "number",
    label: "bundled supply",
    measure: "dev_wallet_insights.bundle_wallet_supply_percentage",
    field: "dev_wallet_insights.bundle_wallet_supply_percentage",
    direction: ">=",
    medium: "5",
    high: "15",
  },
  {
    id: "top10",
    read: "number",
    label: "top-10 holding",
    measure: "token_holder_insights.top_10_holder_percentage",
    field: "holders.top_10_holder_percentage",
    direction: ">=",
    medium: "50",
    high: "80",
  },
  {
    id: "fresh_wallet",
    read: "flag",
    label: "fresh dev wallet",
    measure: "dev_wallet_insights.fresh_wallet",
    field: "dev_wallet_insights.fresh_wallet",
    level: "medium",
    threshold: "= true",
  },
  {
    id: "holders_falling",
    read: "number",
    label: "holder count falling",
    measure: "token_holder_insights.holder_count_change_percentage_24h",
    field: "holders.holder_count_change_percentage_24h",
    direction: "<=",
    medium: "-5",
    high: "-20",
  },
  {
    id: "liquidity",
    read: "share",
    label: "liquidity against market cap",
    measure: "100 × token_metrics.total_liquidity / token_metrics.mcap",
    field: "metrics.total_liquidity",
    per: ["metrics.mcap", "metrics.market_cap_usd"],
    direction: "<",
    medium: "5",
    high: "1",
  },
  {
    id: "rug_status",
    read: "words",
    label: "rug status",
    measure: "rug_status (when sent)",
    field: "rug_status",
    levels: { high: RUG_STATUS_HIGH },
    safe: RUG_STATUS_SAFE,
    otherwise: "medium",
    help: [`not ${RUG_STATUS_SAFE.slice(0, 2).join("/")}…`, `${RUG_STATUS_HIGH.slice(0, 2).join("/")}…`],
  },
  {
    // The service's own verdict: check reads the agents endpoint for the tokens it judges and joins
    // the record it finds (AGENTS_JOIN) to the market record.
    id: "agents_rug_status",
    read: "words",
    label: "rug status (agents)",
    measure: `the agents endpoint's rug_status (${AGENTS_JOIN}.rug_status)`,
    field: `${AGENTS_JOIN}.rug_status`,
    levels: { high: RUG_STATUS_HIGH, medium: RUG_STATUS_MEDIUM },
    safe: RUG_STATUS_SAFE,
    otherwise: "medium",
    help: [`${RUG_STATUS_MEDIUM.join("/")}, any other word`, `${RUG_STATUS_HIGH.slice(0, 2).join("/")}…`],
  },
];

/** The rules with two thresholds, for the help's table and the tests. */
export const THRESHOLDS: readonly ThresholdRule[] = RISK_RULES.filter(
  (r): r is Extract<RiskRule, ThresholdRule> => r.read === "number" || r.read === "share",
);

/** The rules a table's FLAGS column shows, by rule label, and its word for each. */
export const RISK_FLAG_RULES: Record<string, { text: string; share: boolean }> = {
  "dev sold": { text: "DEV SOLD", share: true },
  "bundled supply": { text: "BUNDLED", share: true },
  "top-10 holding": { text: "TOP10", share: true },
  "fresh dev wallet": { text: "FRESH DEV", share: false },
};

export interface RiskReason {
  level: Level;
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
export function reasonText(reason: RiskReason): string {
  return `${reason.rule}: ${reason.field}=${reason.value}${reason.unit ?? ""} (${reason.level} at ${reason.threshold})`;
}

export interface RiskVerdict {
  level: RiskLevel;
  reasons: RiskReason[];
}

/** The level of one record and every reason for it, in the order of the rules. */
export function assessRisk(
  record: unknown,
  sections: RecordSections = MARKET_SECTIONS,
  rules: readonly RiskRule[] = RISK_RULES,
): RiskVerdict {
  const reasons: RiskReason[] = [];
  for (const rule of rules) {
    const reason = reasonFor(rule, record, sections);
    if (reason) reasons.push(reason);
  }
  const level = reasons.some((r) => r.level === "high") ? "high" : reasons.length > 0 ? "medium" : "low";
  return { level, reasons };
}

/** A rule's field path in a record of these sections. */
function pathIn(sections: RecordSections, path: FieldPath): string {
  const dot = path.indexOf(".");
  const head = path.slice(0, dot);
  return head === "holders" || head === "metrics" ? sections[head] + path.slice(dot) : path;
}

/** The reason one rule gives a record, or undefined when the record does not reach it. */
function reasonFor(rule: RiskRule, record: unknown, sections: RecordSections): RiskReason | undefined {
  const field = pathIn(sections, rule.field);
  const value = getPath(record, field);
  const reason = (level: Level, text: string, threshold: string, unit: "%" | null, at = field) => ({
    level,
    rule: rule.label,
    field: at,
    value: text,
    unit,
    threshold,
  });
  switch (rule.read) {
    case "number": {
      const gate = rule.when && pathIn(sections, rule.when.field);
      if (gate && getPath(record, gate) !== true) return undefined;
      const parts = decimalParts(value);
      // A gate that is true is at least medium, whatever number is given (or when none is).
      if (!parts)
        return gate ? reason("medium", "true", thresholdText(rule, "medium"), null, gate) : undefined;
      const level = levelFor(rule, parts) ?? (gate ? "medium" : undefined);
      return level && reason(level, shown(value), thresholdText(rule, level), "%");
    }
    case "share":
      return shareReason(rule, record, sections);
    case "flag":
      return value === true ? reason(rule.level, "true", rule.threshold, null) : undefined;
    case "words": {
      const found = wordLevel(rule, value);
      return found && reason(found.level, value as string, found.threshold, null);
    }
  }
}

function shown(value: unknown): string {
  if (value instanceof LosslessNumber) return value.raw;
  return typeof value === "string" ? value : String(value);
}

/**
 * The level a text field's word gives and the words of the threshold it reached, or undefined
 * (not text, empty, a safe word, or a word of no level).
 */
function wordLevel(
  rule: Extract<RiskRule, { read: "words" }>,
  value: unknown,
): { level: Level; threshold: string } | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const word = value.trim().toUpperCase();
  if (rule.safe.includes(word)) return undefined;
  for (const level of ["high", "medium"] as const) {
    const words = rule.levels[level];
    if (words?.includes(word)) return { level, threshold: words.join("|") };
  }
  return rule.otherwise && { level: rule.otherwise, threshold: `not ${rule.safe.join("|")}` };
}

/** The level a value reaches under a rule, or undefined when it reaches none. */
export function levelFor(rule: ThresholdRule, value: DecimalParts): Level | undefined {
  const reaches = (threshold: string) => {
    const c = compareDecimals(value, decimalParts(threshold)!);
    return rule.direction === ">=" ? c >= 0 : rule.direction === "<=" ? c <= 0 : c < 0;
  };
  if (reaches(rule.high)) return "high";
  if (reaches(rule.medium)) return "medium";
  return undefined;
}

/** The threshold a level was reached at, in words: ">= 25", or the gate's for a gated medium. */
function thresholdText(rule: RiskRule & ThresholdRule, level: Level): string {
  if (rule.read === "number" && rule.when && level === "medium") return rule.when.threshold;
  return `${rule.direction} ${level === "high" ? rule.high : rule.medium}`;
}

/** The share rule's reason: the share of the first denominator the record has. */
function shareReason(
  rule: Extract<RiskRule, { read: "share" }>,
  record: unknown,
  sections: RecordSections,
): RiskReason | undefined {
  const of = pathIn(sections, rule.field);
  const per = rule.per.map((path) => pathIn(sections, path));
  const denominator = per.find((path) => getPath(record, path) !== undefined) ?? per[0]!;
  const share = liquidityShare(getPath(record, of), getPath(record, denominator));
  const level = share && levelFor(rule, share);
  if (!share || !level) return undefined;
  return {
    level,
    rule: rule.label,
    field: `${of}/${denominator}`,
    value: shareText(rule, share, level),
    unit: "%",
    threshold: thresholdText(rule, level),
  };
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
 * The share as a reason gives it: 4 significant digits, rounded half up, at least 2 places
 * (0.008866, 3.457, 45.12): a share below 0.01% is not "0", which a script reads as none. More
 * digits when 4 would round it onto the threshold it is below (4.99995, not 5.00, at < 5).
 */
function shareText(rule: ThresholdRule, share: DecimalParts, level: Level): string {
  for (let digits = 4; digits < 40; digits++) {
    const text = significant(share, digits, 2);
    if (levelFor(rule, decimalParts(text)!) === level) return text;
  }
  return significant(share, 40, 2);
}

/** Whether `level` is at or above `floor`. */
export function reaches(level: RiskLevel, floor: RiskLevel): boolean {
  return RISK_LEVELS.indexOf(level) >= RISK_LEVELS.indexOf(floor);
}

/** The help's columns for a rule: what it reads, and what makes it medium and high. */
function helpRow(rule: RiskRule): string[] {
  switch (rule.read) {
    case "number":
    case "share":
      return [rule.label, rule.measure, thresholdText(rule, "medium"), thresholdText(rule, "high")];
    case "flag": {
      const at = (level: Level) => (rule.level === level ? rule.threshold : "-");
      return [rule.label, rule.measure, at("medium"), at("high")];
    }
    case "words":
      return [rule.label, rule.measure, ...rule.help];
  }
}

/** The rules as rows of a plain-text table, for `check --help`: its header, then threshold rules first. */
export function thresholdRows(): string[][] {
  const rows: string[][] = [["rule", "field", "medium", "high"]];
  for (const rule of THRESHOLDS) rows.push(helpRow(rule as RiskRule));
  for (const rule of RISK_RULES)
    if (!(THRESHOLDS as readonly RiskRule[]).includes(rule)) rows.push(helpRow(rule));
  return rows;
}
