import { isSettingName, SETTINGS, type SettingName } from "../flags/settings-table.js";

// The names a user can keep in the store (`tokenintel config set KEY VALUE`), from the settings
// table (flags/settings-table.ts), for the modules that know a setting only by its name.

/** Each setting's name and what it is. */
export const CONFIG_KEYS = Object.fromEntries(
  Object.entries(SETTINGS).map(([name, setting]) => [name, setting.description]),
) as Record<SettingName, string>;
export type ConfigKey = SettingName;

export function isConfigKey(key: string): key is ConfigKey {
  return isSettingName(key);
}
