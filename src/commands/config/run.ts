import * as z from "zod/mini";
import { CONFIG_KEYS, type ConfigKey, isConfigKey } from "../../config/keys.js";
import type { RunContext } from "../../context.js";
import { CliError, UsageError } from "../../errors.js";
import {
  chainSchema,
  durationSchema,
  oneOf,
  outputSchema,
  parseValue,
  type Schema,
  ttlSchema,
  urlSchema,
  wholeNumber,
} from "../../flags/values.js";
import { USDC_NETWORK_NAMES } from "../../spec/assets.js";

/** A USDC amount as typed (the daily cap), at most 6 decimals; kept as typed. */
const amountSchema = z
  .string()
  .check(z.trim(), z.regex(/^\d+(\.\d{1,6})?$/, "expected an amount such as 1.00 (at most 6 decimals)"));

/** What each setting accepts. Names are stored as the schema spells them, numbers as typed. */
const SCHEMAS: Record<ConfigKey, Schema> = {
  "base-url": urlSchema,
  chain: chainSchema,
  output: outputSchema,
  timeout: durationSchema,
  retries: wholeNumber("of 0 or more", 0),
  "pay-network": oneOf(USDC_NETWORK_NAMES, "network"),
  "daily-cap": amountSchema,
  cache: ttlSchema,
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
      return ctx.io.out(formatRows(await settingRows(ctx, store)));
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
      const checked = parseValue(k, SCHEMAS[k], value);
      store.set(k, typeof checked === "string" ? checked : value.trim());
      return;
    }
    case "unset":
      store.unset(checkKey(key ?? ""));
      return;
  }
}
