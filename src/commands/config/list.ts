import { CONFIG_KEYS, type ConfigKey } from "../../config/keys.js";
import type { ConfigStore } from "../../config/store.js";
import type { RunContext } from "../../context.js";
import { sanitizeInline } from "../../output/sanitize.js";
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, envVariableFor } from "../../settings.js";
import { DEFAULT_BASE_URL } from "../../spec/api.js";

// `config list`: every setting's effective value and where it comes from, in the order a run
// reads them: a flag, then its environment variable, then the config store, then the default.

export interface SettingRow {
  key: string;
  value: string;
  /** "flag --timeout", "env TOKENINTEL_CHAIN", "config", "default", or "" (token-index). */
  source: string;
}

const DEFAULTS: Record<ConfigKey, string> = {
  "base-url": DEFAULT_BASE_URL,
  chain: "(none)",
  output: "(table on a terminal, else json)",
  timeout: `${DEFAULT_TIMEOUT_MS / 1000}s`,
  retries: String(DEFAULT_RETRIES),
  "pay-network": "(the offer's first)",
  "daily-cap": "(none)",
  cache: "0 (off)",
};

/** 90000 → "90s", 600000 → "10m", 3600000 → "1h": as a TTL or timeout is typed. */
function formatMs(ms: number): string {
  if (ms === 0) return "0 (off)";
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** A URL as shown: credentials (which no valid setting holds) masked all the same. */
const showUrl = (url: string) => url.replace(/\/\/[^/@]*@/, "//***@");

export async function settingRows(ctx: RunContext, store: ConfigStore): Promise<SettingRow[]> {
  const g = ctx.settings.globals;
  const fromFlag: Partial<Record<ConfigKey, [string, string]>> = {};
  if (g.sandbox) fromFlag["base-url"] = ["(a local sandbox)", "--sandbox"];
  else if (g.baseUrl !== undefined) fromFlag["base-url"] = [g.baseUrl, "--base-url"];
  if (g.timeout !== undefined) fromFlag.timeout = [formatMs(g.timeout), "--timeout"];
  if (g.retries !== undefined) fromFlag.retries = [String(g.retries), "--retries"];
  if (g.cache === false) fromFlag.cache = ["0 (off)", "--no-cache"];
  else if (g.cache !== undefined) fromFlag.cache = [formatMs(g.cache), "--cache"];

  const stored = store.settings();
  const rows: SettingRow[] = [];
  for (const key of Object.keys(CONFIG_KEYS) as ConfigKey[]) {
    const flag = fromFlag[key];
    const envName = envVariableFor(key);
    const envValue = envName ? ctx.io.env[envName] : undefined;
    let row: SettingRow;
    if (flag) row = { key, value: flag[0], source: `flag ${flag[1]}` };
    else if (envName && envValue) row = { key, value: envValue, source: `env ${envName}` };
    else if (stored[key] !== undefined) row = { key, value: stored[key]!, source: "config" };
    else row = { key, value: DEFAULTS[key], source: "default" };
    // Typed by the user, but shown on a terminal all the same: made inert.
    row.value = sanitizeInline(key === "base-url" ? showUrl(row.value) : row.value);
    rows.push(row);
  }

  const key = await ctx.settings.apiKey();
  const keySource = {
    flag: "flag --api-key",
    sandbox: "flag --sandbox",
    env: "env TOKENINTEL_API_KEY",
    store: "config",
  } as const;
  rows.push(
    key
      ? { key: "api-key", value: "(set; see 'tokenintel auth status')", source: keySource[key.source] }
      : { key: "api-key", value: "(not set)", source: "" },
  );
  const { describeIndex } = await import("../../token-index/store.js");
  rows.push({ key: "token-index", value: describeIndex(ctx.io.env), source: "" });
  return rows;
}

/** Aligned lines: `chain        base      (env TOKENINTEL_CHAIN)`. */
export function formatRows(rows: readonly SettingRow[]): string {
  const keyWidth = Math.max(...rows.map((r) => r.key.length));
  const valueWidth = Math.max(...rows.filter((r) => r.source).map((r) => r.value.length));
  return rows
    .map((r) =>
      r.source
        ? `${r.key.padEnd(keyWidth)}  ${r.value.padEnd(valueWidth)}  (${r.source})`
        : `${r.key.padEnd(keyWidth)}  ${r.value}`,
    )
    .join("\n")
    .concat("\n");
}
