import { assessRisk, RISK_FLAG_RULES } from "../risk/rules.js";
import type { Cell } from "./columns.js";
import { toDecimalNumber } from "./format.js";

// The FLAGS column: the risk rules of src/risk/rules.ts (the same thresholds `tokenintel check`
// judges by), as short words a person can act on at a glance.

/** Dev sold, bundled supply, concentrated holders, fresh dev wallet: each when its rule is reached. */
export function riskFlags(record: unknown, holderSection = "token_holder_insights"): Cell {
  const verdict = assessRisk(record, { holders: holderSection, metrics: "token_metrics" });
  const flags: string[] = [];
  let high = false;
  for (const reason of verdict.reasons) {
    const word = RISK_FLAG_RULES[reason.rule];
    if (!word) continue;
    const n = toDecimalNumber(reason.value);
    flags.push(word.share && n ? `${word.text} ${Math.round(n)}%` : word.text);
    high ||= reason.level === "high";
  }
  if (!flags.length) return { text: "-", tone: "dim" };
  return { text: flags.join(" "), tone: high ? "bad" : "warn" };
}
