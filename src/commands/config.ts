import { CONFIG_KEYS, type ConfigKey, isConfigKey } from "../config/store.js";
import type { Context } from "../context.js";
import { CliError, UsageError } from "../errors.js";
import {
  baseUrlSchema,
  chainSchema,
  durationSchema,
  nonNegativeInt,
  outputSchema,
  parseFlag,
} from "./options.js";

const VALIDATORS: Record<ConfigKey, (value: string) => unknown> = {
  "base-url": (v) => parseFlag("base-url", baseUrlSchema, v),
  chain: (v) => parseFlag("chain", chainSchema, v),
  output: (v) => parseFlag("output", outputSchema, v),
  timeout: (v) => parseFlag("timeout", durationSchema, v),
  retries: (v) => parseFlag("retries", nonNegativeInt, v),
};

function checkKey(key: string): ConfigKey {
  if (key === "api-key" || key === "api_key") {
    throw new UsageError(
      "the API key is not a config value: use 'tokenintel auth login' (it reads the key without echo)",
    );
  }
  if (!isConfigKey(key))
    throw new UsageError(`unknown config key "${key}" (known: ${Object.keys(CONFIG_KEYS).join(", ")})`);
  return key;
}

export async function runConfig(
  ctx: Context,
  action: "get" | "set" | "unset" | "list" | "path",
  key?: string,
  value?: string,
): Promise<void> {
  const store = await ctx.store();
  switch (action) {
    case "path":
      return ctx.io.out(`${store.path}\n`);
    case "list": {
      const settings = store.settings();
      let text = "";
      for (const name of Object.keys(CONFIG_KEYS) as ConfigKey[]) {
        if (settings[name] !== undefined) text += `${name}=${settings[name]}\n`;
      }
      text += `api-key=${store.apiKey ? "(set; see 'tokenintel auth status')" : "(not set)"}\n`;
      return ctx.io.out(text);
    }
    case "get": {
      const k = checkKey(key ?? "");
      const v = store.get(k);
      if (v === undefined) throw new CliError(`${k} is not set`);
      return ctx.io.out(`${v}\n`);
    }
    case "set": {
      const k = checkKey(key ?? "");
      if (value === undefined) throw new UsageError("config set: missing value");
      VALIDATORS[k](value);
      store.set(k, k === "base-url" ? String(VALIDATORS[k](value)) : value.trim());
      return;
    }
    case "unset":
      store.unset(checkKey(key ?? ""));
      return;
  }
}
