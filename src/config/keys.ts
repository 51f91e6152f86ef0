/** Settings a user can keep in the store (`tokenintel config set KEY VALUE`). */
export const CONFIG_KEYS = {
  "base-url": "API base URL (default https://api.dapplooker.com)",
  chain: "default chain: base or solana",
  output: "default output format: table, json, ndjson or csv",
  timeout: "per-request timeout, e.g. 30s or 5 (seconds)",
  retries: "retries for failed requests (default 3)",
  "pay-network": "where --pay pays when several networks are offered: base, polygon or base-sepolia",
  "daily-cap": "the most --pay signs in any 24 hours, by every run, e.g. 1.00 (unset: no cap)",
  cache: "answer repeated GETs from disk for this long, e.g. 10m (0 or unset: off)",
} as const;
export type ConfigKey = keyof typeof CONFIG_KEYS;

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, key);
}
