import type { FanOutQuery } from "../../api/records.js";
import type { PathGeneration } from "../../contract/api.js";
import type { FanOut } from "../../contract/endpoints.js";
import { UsageError } from "../../errors.js";
import type { Flag } from "../../flags/table.js";
import type { DataCommandDefinition } from "./definition.js";

// A parameter an endpoint is asked for value by value (its registry entry's fanOut): the flag of the
// same name takes a list of its values, or `all`; without it, the default. Each value is asked at
// the path that serves it on the generation the api-paths setting chooses.

/** The word that asks for every value. */
export const ALL = "all";

/** The values a run asks, in the order given, each once: the flag's list, every one for `all`, else the default. */
export function fanOutValues(fan: FanOut, given: readonly string[] | undefined): string[] {
  if (!given?.length) return [fan.default];
  const asked = given.map((value) => value.trim().toLowerCase());
  if (asked.includes(ALL)) return [...fan.values];
  const unknown = asked.find((value) => !fan.values.includes(value));
  if (unknown !== undefined)
    throw new UsageError(
      `--${fan.param}: unknown ${fan.noun} ${JSON.stringify(unknown)} (expected ${fan.values.join(", ")}, or ${ALL})`,
    );
  return [...new Set(asked)];
}

/** The path that serves a value: the older generation's where it serves that value, else the newer's. */
export function pathFor(
  definition: Pick<DataCommandDefinition, "endpoint" | "newerPath" | "fanOut">,
  value: string,
  generation: PathGeneration,
): string {
  const older = definition.endpoint.path;
  const newer = definition.newerPath ?? older;
  if (generation === "newer") return newer;
  const served = definition.fanOut?.olderPathServes;
  return served === undefined || served.includes(value) ? older : newer;
}

/** The run's fan-out: each value asked, with its path; undefined for an endpoint without one. */
export function fanOutQuery(
  definition: Pick<DataCommandDefinition, "endpoint" | "newerPath" | "fanOut">,
  given: readonly string[] | undefined,
  generation: PathGeneration,
): FanOutQuery | undefined {
  const fan = definition.fanOut;
  if (!fan) return undefined;
  const values = fanOutValues(fan, given);
  return {
    param: fan.param,
    values: values.map((value) => ({ value, path: pathFor(definition, value, generation) })),
  };
}

/**
 * The flag of a fan-out, named as its parameter: a list of its values or `all` (completion offers
 * them, an MCP tool takes them as an enum), the default when left out.
 */
export function fanOutFlag<const F extends FanOut>(fan: F) {
  return {
    flags: `--${fan.param} <${fan.noun}s>`,
    description: `${fan.noun}: ${fan.default} (default), ${fan.values.filter((v) => v !== fan.default).join(", ")}; a comma-separated list, or ${ALL} (one request per ${fan.noun} and item, each record's ${fan.param} saying which)`,
    kind: "list",
    choices: [...fan.values, ALL] as const,
  } as const satisfies Flag;
}
