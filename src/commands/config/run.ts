import { type ConfigKey, isConfigKey } from "../../config/keys.js";
import type { RunContext } from "../../context.js";
import { CliError, UsageError } from "../../errors.js";
import { schemaForFlag } from "../../flags/parse.js";
import { SETTINGS, type Setting, settingNames } from "../../flags/settings-table.js";
import { parseValue } from "../../flags/values.js";
import { closest } from "../../help/hints.js";

function checkKey(key: string): ConfigKey {
  if (key === "api-key" || key === "api_key") {
    throw new UsageError(
      "the API key is not a config value: use 'tokenintel auth login' (it reads the key without echo)",
    );
  }
  if (!isConfigKey(key)) {
    const near = closest(key, settingNames());
    const hint = near.length ? ` (did you mean ${near.join(" or ")}?)` : "";
    throw new UsageError(`unknown config key "${key}"${hint} (known: ${settingNames().join(", ")})`);
  }
  return key;
}

export async function runConfig(
  ctx: RunContext,
  action: "get" | "set" | "unset" | "list" | "path",
  key?: string,
  value?: string,
): Promise<void> {
  const store = await ctx.store();
  switch (action) {
    case "path":
      return ctx.io.out(`${store.path}\n`);
    case "list": {
      const { formatRows, settingRows } = await import("./list.js");
      const rows = await settingRows(ctx);
      return ctx.io.out(await formatRows(rows, ctx.io.stdoutIsTTY ? ctx.io.columns : undefined));
    }
    case "get": {
      const k = checkKey(key ?? "");
      const v = store.get(k);
      if (v === undefined) throw new CliError(`${k} is not set`);
      if ((SETTINGS[k] as Setting).secret)
        throw new UsageError(`${k} is secret: it is never printed (config list says whether it is set)`);
      return ctx.io.out(`${v}\n`);
    }
    case "set": {
      const k = checkKey(key ?? "");
      if (value === undefined) throw new UsageError("config set: missing value");
      // The check a flag's value gets: one schema per setting, from its flag's kind.
      const setting = SETTINGS[k] as Setting;
      // The bad value is named, as a flag's is; a secret's never.
      const checked = parseValue(k, schemaForFlag(setting.flag), value, !setting.secret);
      if (setting.secret) ctx.io.addSecret(value.trim());
      store.set(k, typeof checked === "string" ? checked : value.trim());
      return;
    }
    case "unset":
      // A name in the file that is no setting (a hand edit's typo) may be removed all the same.
      store.unset(key && Object.hasOwn(store.settings(), key) ? (key as ConfigKey) : checkKey(key ?? ""));
      return;
  }
}
