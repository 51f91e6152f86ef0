import type { DataCommandDefinition } from "../../src/commands/data/definition.js";
import { ENDPOINTS, type EndpointSpec } from "../../src/contract/endpoints.js";
import { COMMANDS } from "../../src/program.js";

// The data commands' definitions as the program has them: each registry entry with a command, that
// command's module, its definition. Derived, never listed by hand, so that a data command the
// registry names and the program does not wire (or wires without its definition) fails the tests.

/** The definition of every data command, by command name. */
export async function dataDefinitions(): Promise<Record<string, DataCommandDefinition>> {
  const out: Record<string, DataCommandDefinition> = {};
  for (const e of Object.values(ENDPOINTS) as EndpointSpec[]) {
    if (typeof e.command !== "string" || !e.shape) continue;
    const load = COMMANDS[e.command];
    if (!load) continue;
    const definition = await (await load()).default.definition?.();
    if (definition) out[e.command] = definition;
  }
  return out;
}
