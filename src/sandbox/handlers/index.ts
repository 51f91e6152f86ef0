import { ENDPOINTS, type EndpointName, type EndpointSpec, pathsOf } from "../../contract/endpoints.js";
import { agents } from "./agents.js";
import { analysis } from "./analysis.js";
import { ask } from "./ask.js";
import type { Handler } from "./context.js";
import { directory } from "./directory.js";
import { history } from "./history.js";
import { market, marketRedirect } from "./market.js";
import { perp } from "./perp.js";
import { smartMoney } from "./smart-money.js";
import { staking } from "./staking.js";
import { ta } from "./ta.js";
import { trending } from "./trending.js";

/** The handler of each registry entry the sandbox serves (`sandbox: true` there). */
export const HANDLERS: Partial<Record<EndpointName, Handler>> = {
  market,
  directory,
  agents,
  ta,
  trending,
  "smart-money": smartMoney,
  staking,
  history,
  perp,
  ask,
  "market-analysis": analysis,
};

const served = (Object.entries(ENDPOINTS) as Array<[EndpointName, EndpointSpec]>).filter(
  ([name]) => HANDLERS[name] !== undefined,
);

/** Every path the sandbox answers (both generations and the aliases of each entry), and its handler. */
export const ROUTES: Record<string, Handler> = Object.fromEntries([
  ...served.flatMap(([name, entry]) => pathsOf(entry).map((path) => [path, HANDLERS[name]!] as const)),
  // The market path without its slash answers 301 to it (docs/api-notes.md, "Paths").
  [ENDPOINTS.market.path.replace(/\/$/, ""), marketRedirect],
]);

/** Paths whose keyless requests are paid per request (x402): every endpoint has a price. */
export const PAYABLE: ReadonlySet<string> = new Set(
  served.flatMap(([, entry]) => (entry.price ? pathsOf(entry) : [])),
);

/** USDC (6 decimals) as the registry writes a price ("0.10") to atomic units ("100000"). */
function atomicUsdc(price: string): string {
  const [whole, fraction = ""] = price.split(".");
  return (BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6))).toString();
}

/** What one request to each payable path costs, in USDC atomic units: its registry entry's price. */
export const PRICES: ReadonlyMap<string, string> = new Map(
  served.flatMap(([, entry]) => pathsOf(entry).map((path) => [path, atomicUsdc(entry.price)] as const)),
);
