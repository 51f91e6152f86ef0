import { ENDPOINTS } from "../../contract/endpoints.js";
import { dotPaths, STAKING_ACTIVITY } from "../../contract/shapes.js";
import { identity } from "../../output/column-sets.js";
import { type Column, cellValue, col } from "../../output/columns.js";
import { formatPlain } from "../../output/format.js";
import { type DataCommandDefinition, dataCommand, type TableLayout } from "../data/definition.js";

// staking: per token, its staking details (TVL, net staked, retention, stakers, holders) or its last
// 24h (--view trends); with --activities, one row per recent stake or unstake, with the user type,
// so smart-money and dev moves stand out. `tvl` (older path) and `tvl_usd` (newer) are both read;
// net_staked and net_staked_usd are the service's formatted strings ("3.4M"), shown as written.

const d = (field: string) => `staking_details.${field}`;
const t = (field: string) => `trends.${field}`;

const VIEWS: Record<(typeof ENDPOINTS)["staking"]["views"][number], TableLayout> = {
  details: {
    columns: [
      identity.symbol,
      col("PRICE", d("latest_price"), "price"),
      col("TVL", [d("tvl_usd"), d("tvl")], "usd"),
      col("NET STAKED", d("net_staked"), "text", { max: 12, min: 4 }),
      col("NET $", d("net_staked_usd"), "text", { max: 12, min: 4 }),
      col("NET %", d("net_staked_percentage"), "share"),
      col("RETENTION", d("stake_retention_percentage"), "share"),
      col("STAKERS", d("total_stakers"), "int"),
      col("HOLDERS", d("token_holders"), "int"),
    ],
    wide: [
      identity.name,
      col("24H", d("price_change_percentage_24h"), "percent"),
      col("VOL 24H", d("volume_usd_24h"), "usd"),
      col("WITHDRAWN", d("total_withdrawn"), "amount"),
      col("WDRAWN %", d("total_withdrawn_percentage"), "share"),
      col("ADDRESS", d("contract_address"), "text", { max: 44, min: 14 }),
    ],
  },
  trends: {
    columns: [
      identity.symbol,
      col("STAKES 24H", t("stake_count_24h"), "int"),
      col("STAKED 24H", t("stake_amount_24h"), "amount"),
      col("STAKED $", t("stake_amount_usd_24h"), "usd"),
      col("UNSTAKES 24H", t("unstake_count_24h"), "int"),
      col("UNSTAKED 24H", t("unstake_amount_24h"), "amount"),
      col("UNSTAKED $", t("unstake_amount_usd_24h"), "usd"),
    ],
    wide: [identity.name, col("ADDRESS", d("contract_address"), "text", { max: 44, min: 14 })],
  },
};

// A token's fields and an activity's are apart: a filter or sort on the other's is pointed there.
const ACTIVITY_FIELDS = {
  paths: new Set(dotPaths(STAKING_ACTIVITY)),
  how: "an activity's field: add --activities",
};
const TOKEN_FIELDS = {
  paths: new Set(dotPaths(ENDPOINTS.staking.shape!)),
  how: "a token's field, not an activity's: leave out --activities",
};

export const STAKING: DataCommandDefinition = {
  ...dataCommand(ENDPOINTS.staking, { views: VIEWS, emptyMessage: "No staking data for these tokens." }),
  otherRecords: ACTIVITY_FIELDS,
};

/** A user type that stands out: smart money and the token's developers. */
const USER_TONES = { smart_money_user: "warn", dev: "bad" } as const;

const tone =
  (tones: Record<string, "up" | "down" | "warn" | "bad">) =>
  (path: string, header: string): Column =>
    col(header, path, "text", {
      compute: (record) => {
        const text = formatPlain(cellValue(record, col(header, path, "text")));
        return { text, tone: tones[text] ?? tones[text.toLowerCase()] };
      },
    });

const ACTIVITY: TableLayout = {
  columns: [
    col("SYMBOL", "symbol", "text", { max: 12 }),
    col("TIME", "timestamp", "time"),
    tone({ stake: "up", unstake: "down" })("action", "ACTION"),
    col("AMOUNT", "amount", "amount"),
    tone(USER_TONES)("user_type", "USER"),
    col("WALLET", "wallet_address", "address"),
  ],
  wide: [col("TX", "tx_hash", "text", { max: 66, min: 14 })],
};

/** A record's activities as rows, each naming its token's ticker as `symbol` (unless it has one). */
function activities(record: unknown): unknown[] {
  const r = record as { staking_details?: { ticker?: unknown }; staking_activities?: unknown };
  const list = Array.isArray(r?.staking_activities) ? r.staking_activities : [];
  const symbol = r?.staking_details?.ticker;
  return list.map((activity) =>
    activity &&
    typeof activity === "object" &&
    !Array.isArray(activity) &&
    !("symbol" in activity) &&
    symbol !== undefined
      ? { symbol, ...activity }
      : activity,
  );
}

/** --activities: the same requests, one row per activity. */
export const STAKING_ACTIVITIES: DataCommandDefinition = {
  ...STAKING,
  shape: STAKING_ACTIVITY,
  table: { views: { details: ACTIVITY }, defaultView: "details" },
  rows: activities,
  emptyMessage: "No staking activity for these tokens.",
  otherRecords: TOKEN_FIELDS,
};
