import type { ConfigKey } from "../../config/keys.js";
import {
  chainSchema,
  durationSchema,
  oneOf,
  outputSchema,
  type Schema,
  ttlSchema,
  urlSchema,
  wholeNumber,
} from "../../flags/values.js";
import { USDC_NETWORK_NAMES } from "../../spec/assets.js";

/** What each setting accepts. Names are stored as the schema spells them, numbers as typed. */
export const SCHEMAS: Record<ConfigKey, Schema> = {
  "base-url": urlSchema,
  chain: chainSchema,
  output: outputSchema,
  timeout: durationSchema,
  retries: wholeNumber("of 0 or more", 0),
  "pay-network": oneOf(USDC_NETWORK_NAMES, "network"),
  cache: ttlSchema,
};
