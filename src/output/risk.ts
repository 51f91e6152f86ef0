import type { Cell, Tone } from "./columns.js";
import { toDecimalNumber } from "./format.js";
import { getPath } from "./paths.js";

// The risk rules a table's FLAGS column shows, in one place.

/** Short flags a person can act on at a glance: dev sold, bundled supply, concentrated holders. */
export function riskFlags(record: unknown, holderSection = "token_holder_insights"): Cell {
  const flags: string[] = [];
  let tone: Tone | undefined;
  const num = (path: string) => toDecimalNumber(getPath(record, path));
  if (getPath(record, "dev_wallet_insights.dev_sold") === true) {
    const share = num("dev_wallet_insights.dev_sold_percentage");
    flags.push(share ? `DEV SOLD ${Math.round(share)}%` : "DEV SOLD");
    tone = "bad";
  }
  const bundled = num("dev_wallet_insights.bundle_wallet_supply_percentage");
  if (bundled !== undefined && bundled >= 5) {
    flags.push(`BUNDLED ${Math.round(bundled)}%`);
    tone = bundled >= 15 ? "bad" : (tone ?? "warn");
  }
  const top10 = num(`${holderSection}.top_10_holder_percentage`);
  if (top10 !== undefined && top10 >= 50) {
    flags.push(`TOP10 ${Math.round(top10)}%`);
    tone ??= "warn";
  }
  if (getPath(record, "dev_wallet_insights.fresh_wallet") === true) {
    flags.push("FRESH DEV");
    tone ??= "warn";
  }
  return flags.length ? { text: flags.join(" "), tone } : { text: "-", tone: "dim" };
}
