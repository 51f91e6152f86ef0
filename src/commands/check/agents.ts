import type { Requester } from "../../api/pager.js";
import { type RecordQuery, type Selector, streamRecords } from "../../api/records.js";
import { identityOf } from "../../contract/identity.js";
import { getPath } from "../../json/dot-paths.js";
import { AGENTS } from "../agents/definition.js";

// What the agents endpoint says of the tokens check judges: its rug_status, the service's own verdict.
// The same list is asked of it (by ticker, address or id, one request per 30), and each market record
// is joined to the agent record of the same token: by address, else id, else a symbol one agent alone has.

/** The longest rug_status kept: a word; a longer value is cut (it is still a word of no known level). */
const MAX_STATUS = 64;

/** One agent record, as much of it as the join and the rule need. */
export interface AgentVerdict {
  /** Its rug_status as sent (cut to MAX_STATUS characters), or null when it sends none. */
  rugStatus: string | null;
  /** Its address, lower case, when it gives one. */
  address: string | undefined;
}

/** The agent records read, by address (lower case), id and symbol (lower case). */
export interface AgentIndex {
  byAddress: Map<string, AgentVerdict>;
  byId: Map<string, AgentVerdict>;
  bySymbol: Map<string, AgentVerdict[]>;
}

/** The agents endpoint's query for the list `market` asks the market for: the same items, its own parameter. */
export function agentsQuery(market: RecordQuery, selector: Selector): RecordQuery {
  const param = AGENTS.selectors[selector.kind];
  if (!param) throw new Error(`check: the agents endpoint takes no ${selector.kind} list`);
  return { ...market, endpoint: AGENTS.endpoint, selector: { ...selector, param } };
}

/** Reads every agent record the list matches into an index. */
export async function readAgents(client: Requester, query: RecordQuery): Promise<AgentIndex> {
  const index: AgentIndex = { byAddress: new Map(), byId: new Map(), bySymbol: new Map() };
  for await (const batch of streamRecords(client, query)) {
    for (const record of batch) {
      const status = getPath(record, "rug_status");
      const address = identityOf(record, "address")?.toLowerCase();
      const verdict = { rugStatus: typeof status === "string" ? status.slice(0, MAX_STATUS) : null, address };
      const id = identityOf(record, "id");
      const symbol = identityOf(record, "symbol")?.toLowerCase();
      if (address) index.byAddress.set(address, verdict);
      if (id) index.byId.set(id, verdict);
      if (symbol) index.bySymbol.set(symbol, [...(index.bySymbol.get(symbol) ?? []), verdict]);
    }
  }
  return index;
}

/**
 * The agent record of the token a market record is: the same address, else the same id, else the
 * one agent of its symbol; never one whose address is another.
 */
export function agentOf(index: AgentIndex, record: unknown): AgentVerdict | undefined {
  const address = identityOf(record, "address")?.toLowerCase();
  if (address && index.byAddress.has(address)) return index.byAddress.get(address);
  const sameToken = (agent: AgentVerdict | undefined) =>
    agent && (!address || !agent.address || agent.address === address) ? agent : undefined;
  const id = identityOf(record, "id");
  if (id && index.byId.has(id)) return sameToken(index.byId.get(id));
  const symbol = identityOf(record, "symbol")?.toLowerCase();
  const same = symbol ? index.bySymbol.get(symbol) : undefined;
  return same?.length === 1 ? sameToken(same[0]) : undefined;
}
