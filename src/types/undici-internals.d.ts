// undici's index loads every feature it has (fetch, WebSocket, caches, mocks: ~1 MB, ~25 ms more at
// start-up). tokenintel needs the Agent (and its dispatch()) and the header parser only; undici publishes no exports map, so
// these modules are importable directly. Their types are the public ones.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/core/util.js" {
  /** Raw header lines (name, value, name, value…) as one record, repeated names as arrays. */
  export function parseHeaders(
    headers: Buffer[],
    into?: Record<string, string | string[]>,
  ): Record<string, string | string[] | undefined>;
}
