// undici's index loads every feature it has (fetch, WebSocket, caches, mocks: ~1 MB, ~25 ms more at
// start-up). tokenintel needs the Agent and request() only; undici publishes no exports map, so
// these modules are importable directly. Their types are the public ones.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";

  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
