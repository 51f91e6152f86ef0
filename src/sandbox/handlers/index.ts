import { ENDPOINTS, type EndpointName, type EndpointSpec, pathsOf } from "../../contract/endpoints.js";
import { agents } from "./agents.js";
import { ask } from "./ask.js";
import type { Handler } from "./context.js";
import { directory } from "./directory.js";
import { history } from "./history.js";
import { market, marketRedirect } from "./market.js";
import { ta } from "./ta.js";
import { trending } from "./trending.js";

const HANDLERS: Record<EndpointName, Handler> = { market, directory, agents, ta, trending, history, ask };

/** Every path the sandbox answers (the endpoint table's, with their aliases), and its handler. */
export const ROUTES: Record<string, Handler> = Object.fromEntries([
  ...Object.entries(ENDPOINTS).flatMap(([name, e]) =>
    pathsOf(e).map((path) => [path, HANDLERS[name as EndpointName]] as const),
  ),
  // The market path without its slash answers 301 to it (live-notes).
  [ENDPOINTS.market.path.replace(/\/$/, ""), marketRedirect],
]);

/** Paths whose keyless requests are paid per request (x402): the endpoint table's payable ones. */
export const PAYABLE: ReadonlySet<string> = new Set(
  Object.values(ENDPOINTS).flatMap((e: EndpointSpec) => (e.payable ? pathsOf(e) : [])),
);
