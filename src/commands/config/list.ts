import { type ConfigKey, isConfigKey } from "../../config/keys.js";
import type { RunContext } from "../../context.js";
import { flagAttribute, SETTINGS, type Setting, settingNames } from "../../flags/settings-table.js";
import { type Flag, longName } from "../../flags/table.js";
import { sanitizeInline } from "../../terminal/sanitize.js";

// `config list`: every setting's effective value and where it comes from, in the order a run
// reads them: a flag, then its environment variable, then the config store, then the default. The
// rows are the settings table's (flags/settings-table.ts), in its order.

export interface SettingRow {
  key: string;
  value: string;
  /** "flag --timeout", "env TOKENINTEL_CHAIN", "config", "default", or "" (token-index). */
  source: string;
  /** Why the value (from the environment or the file) cannot be used: a command using it fails. */
  invalid?: string;
}

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

/** A setting's value as a user types it: durations in their units, the rest as text. */
function shown(flag: Flag, value: unknown): string {
  if ((flag.kind === "duration" || flag.kind === "ttl") && typeof value === "number") return formatMs(value);
  if (value === false) return "off";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A URL as shown: credentials (which no valid setting holds) masked all the same. */
const showUrl = (url: string) => url.replace(/\/\/[^/@]*@/, "//***@");

/** The value given by a global setting's flag on this command line, and its spelling. */
function fromFlag(ctx: RunContext, name: ConfigKey, setting: Setting): [string, string] | undefined {
  const globals = ctx.settings.globals as Record<string, unknown>;
  if (name === "base-url" && globals.sandbox) return ["(a local sandbox)", "--sandbox"];
  if (setting.flag.group !== "global") return undefined;
  const value = globals[flagAttribute(name)];
  if (value === undefined) return undefined;
  if (value === false && setting.flag.negation)
    return [shown(setting.flag, 0), longName({ ...setting.flag, flags: setting.flag.negation.flags })];
  return [shown(setting.flag, value), longName(setting.flag)];
}

export async function settingRows(ctx: RunContext): Promise<SettingRow[]> {
  const { schemaForFlag } = await import("../../flags/parse.js");
  const file: unknown = ctx.settings.stored().settings;
  const malformed = file !== undefined && file !== null && (typeof file !== "object" || Array.isArray(file));
  const stored = (file && !malformed ? file : {}) as Record<string, unknown>;
  const rows: SettingRow[] = [];
  for (const key of settingNames()) {
    const setting = SETTINGS[key] as Setting;
    const flag = fromFlag(ctx, key, setting);
    const envValue = ctx.io.env[setting.env];
    let row: SettingRow;
    if (flag) row = { key, value: flag[0], source: `flag ${flag[1]}` };
    else if (envValue) row = { key, value: envValue, source: `env ${setting.env}` };
    else if (stored[key] !== undefined && stored[key] !== null)
      row = { key, value: shown(setting.flag, stored[key]), source: "config" };
    else {
      const value = setting.default !== undefined ? shown(setting.flag, setting.default) : setting.unset;
      row = { key, value: value ?? "(none)", source: "default" };
    }
    if (row.source.startsWith("env") || row.source === "config") {
      const checked = schemaForFlag(setting.flag).safeParse(row.value);
      if (!checked.success) row.invalid = checked.error.issues[0]?.message ?? "invalid value";
    }
    if (setting.secret && row.source !== "default") row.value = "(set; never shown)";
    // Typed by the user, but shown on a terminal all the same: made inert.
    row.value = sanitizeInline(key === "base-url" ? showUrl(row.value) : row.value);
    rows.push(row);
  }
  // A name in the file that is no setting (a typo in a hand edit) is named, not silently ignored.
  for (const name of Object.keys(stored).filter((key) => !isConfigKey(key))) {
    rows.push({
      key: sanitizeInline(name),
      value: "(not shown)",
      source: "config",
      invalid: `not a setting (known: ${settingNames().join(", ")}); remove it with 'tokenintel config unset'`,
    });
  }
  if (malformed) {
    rows.push({
      key: "settings",
      value: "(not shown)",
      source: "config",
      invalid: `not an object of settings; fix it or remove it in ${ctx.settings.configFile()}`,
    });
  }

  const key = await ctx.settings.apiKey();
  const keySource = {
    flag: "flag --api-key",
    sandbox: "flag --sandbox",
    env: "env TOKENINTEL_API_KEY",
    store: ctx.settings.globals.sandbox ? "config (sandbox profile)" : "config",
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

/**
 * Aligned lines: `chain        base      (env TOKENINTEL_CHAIN)`. On a terminal (`width` given) the
 * same columns laid out by cli-table3 at its width: a long value or note wraps within its column.
 */
export async function formatRows(rows: readonly SettingRow[], width?: number): Promise<string> {
  if (width !== undefined) {
    const { wrapRows } = await import("../../output/wrap.js");
    const note = (row: SettingRow) => `(${row.source})${row.invalid ? `  INVALID: ${row.invalid}` : ""}`;
    return wrapRows(
      rows.map((row) =>
        row.source
          ? [{ text: row.key }, { text: row.value, wrap: true }, { text: note(row), wrap: true }]
          : [{ text: row.key }, { text: row.value, wrap: true, span: 2 }],
      ),
      { width, floors: [4, 10, 12] },
    );
  }
  return linesOf(rows);
}

function linesOf(rows: readonly SettingRow[]): string {
  const keyWidth = Math.max(...rows.map((row) => row.key.length));
  const valueWidth = Math.max(...rows.filter((row) => row.source).map((row) => row.value.length));
  return rows
    .map((row) =>
      row.source
        ? `${row.key.padEnd(keyWidth)}  ${row.value.padEnd(valueWidth)}  (${row.source})${row.invalid ? `  INVALID: ${row.invalid}` : ""}`
        : `${row.key.padEnd(keyWidth)}  ${row.value}`,
    )
    .join("\n")
    .concat("\n");
}
