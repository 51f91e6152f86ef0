import { endpointOfCommand } from "./endpoints.js";

/** The commands named, by the registry's price of a request of theirs (those without one left out), in order. */
export function commandsByPrice(commands: readonly string[]): Map<string, string[]> {
  const byPrice = new Map<string, string[]>();
  for (const command of commands) {
    const price = endpointOfCommand(command)?.price;
    if (price) byPrice.set(price, [...(byPrice.get(price) ?? []), command]);
  }
  return byPrice;
}
