import type { ApiClient } from "../../api/client.js";
import { selectorKey } from "../../api/list-walk.js";
import { type Selector, type SelectorKind, streamRecords } from "../../api/records.js";
import type { RunContext } from "../../context.js";
import { CHAINS } from "../../contract/api.js";
import { identityOf } from "../../contract/identity.js";
import { getPath } from "../../json/dot-paths.js";
import type { Column } from "../../output/columns.js";
import { col } from "../../output/columns.js";
import { assessRisk, type RiskLevel, reasonText } from "../../risk/rules.js";
import { MARKET } from "../market/definition.js";

// ask --explain: the figures that ground an answer. The tokens an answer names (its tokenDetails,
// else the $TICKERS of the question) are looked up in the market endpoint, at most
// MAX_EXPLAINED_TOKENS of them (the rest are counted and said), so one request per chain and kind
// of name, and only on the chains tokenintel knows; each is shown with its price, 24h change,
// market cap, liquidity, holders and the risk verdict `check` gives. A token with no market record
// is kept, marked.

/** The most tokens --explain looks up: one market request per chain (base, solana) and kind of name. */
export const MAX_EXPLAINED_TOKENS = 30;

/** One token the answer names, with its market figures (exact, as the server sent them). */
export interface Grounding {
  /** What was looked up: the id, address or ticker the answer named. */
  named: string;
  found: boolean;
  symbol: string | null;
  name: string | null;
  id: string | null;
  address: string | null;
  chain: string | null;
  price: unknown;
  change_24h: unknown;
  mcap: unknown;
  liquidity: unknown;
  holders: unknown;
  risk: RiskLevel | null;
  reasons: string[];
  /** Why a token has no figures: "no market record", or "no chain" (neither --chain nor the answer gave one). */
  missing: "no market record" | "no chain" | null;
}

interface Named {
  kind: SelectorKind;
  item: string;
  chain: string | undefined;
}

const KIND_FIELD: Record<SelectorKind, string> = {
  id: "token_id",
  address: "token_ca",
  ticker: "token_ticker",
};

/**
 * The tokens an answer names: its tokenDetails (each by id, else address, else ticker), then the
 * `$TICKER`s written in the question that no detail covers (a token asked about and left out of
 * the answer is looked up too, so it is named rather than silently missing).
 */
export function namedTokens(details: readonly unknown[], question: string): Named[] {
  // A name goes into a comma-joined query: one with a comma, a space or past 128 characters is no
  // token's and is not looked up.
  const text = (detail: unknown, field: string) => {
    const value = getPath(detail, field);
    return typeof value === "string" && /^[^\s,]{1,128}$/.test(value.trim()) ? value.trim() : undefined;
  };
  const named: Named[] = [];
  const covered = new Set<string>();
  for (const detail of details) {
    const ticker = text(detail, KIND_FIELD.ticker);
    if (ticker) covered.add(ticker.toLowerCase());
    const kind = (["id", "address", "ticker"] as const).find((candidate) =>
      text(detail, KIND_FIELD[candidate]),
    );
    if (kind) named.push({ kind, item: text(detail, KIND_FIELD[kind])!, chain: text(detail, "chain") });
  }
  for (const match of question.matchAll(/\$([A-Za-z][A-Za-z0-9_]{0,31})\b/g)) {
    if (!covered.has(match[1]!.toLowerCase()))
      named.push({ kind: "ticker", item: match[1]!, chain: undefined });
  }
  return unique(named);
}

function unique(named: Named[]): Named[] {
  const seen = new Set<string>();
  return named.filter((token) => {
    const key = `${token.kind}:${token.chain ?? ""}:${token.item.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A chain the answer names, when it is one tokenintel knows (base, solana); else undefined. */
function knownChain(name: string | undefined): string | undefined {
  const lower = name?.toLowerCase();
  return (CHAINS as readonly string[]).includes(lower ?? "") ? lower : undefined;
}

/**
 * Looks the named tokens up in the market endpoint, with the client the answer came by (so a paid
 * answer pays for its figures too): one request per chain and kind (the chain from
 * --chain, else the detail's own when it is base or solana). Tokens whose chain is known neither
 * way are reported, not guessed.
 */
export async function groundTokens(
  ctx: RunContext,
  client: ApiClient,
  named: Named[],
  chain: string | undefined,
): Promise<{ rows: Grounding[]; unknownChain: string[] }> {
  const groups = new Map<string, { chain: string; kind: SelectorKind; items: string[] }>();
  const unknownChain: string[] = [];
  for (const token of named) {
    const tokenChain = chain ?? knownChain(token.chain);
    if (!tokenChain) {
      unknownChain.push(token.item);
      continue;
    }
    const key = `${tokenChain}:${token.kind}`;
    const group = groups.get(key) ?? { chain: tokenChain, kind: token.kind, items: [] };
    group.items.push(token.item);
    groups.set(key, group);
  }
  const found = new Map<string, unknown>();
  if (groups.size) {
    for (const { chain: groupChain, kind, items } of groups.values()) {
      const selector: Selector = { kind, param: MARKET.selectors[kind]!, items };
      const query = {
        endpoint: MARKET.endpoint,
        query: [["chain", groupChain]] as Array<[string, string]>,
        selector,
      };
      for await (const batch of streamRecords(client, {
        ...query,
        window: ctx.settings.concurrency * 2,
        signal: ctx.signal,
      }))
        for (const record of batch) {
          const key = selectorKey(record, kind);
          if (key !== undefined && !found.has(`${groupChain}:${kind}:${key}`))
            found.set(`${groupChain}:${kind}:${key}`, record);
        }
    }
  }
  const rows = named.map((token) => {
    const tokenChain = chain ?? knownChain(token.chain);
    if (!tokenChain) return groundingOf(token.item, undefined, undefined, "no chain");
    return groundingOf(
      token.item,
      found.get(`${tokenChain}:${token.kind}:${token.item.toLowerCase()}`),
      tokenChain,
      "no market record",
    );
  });
  return { rows, unknownChain };
}

function figure(record: unknown, ...paths: string[]): unknown {
  for (const path of paths) {
    const value = getPath(record, path);
    if (value !== undefined && value !== null) return value;
  }
  return null;
}

function groundingOf(
  named: string,
  record: unknown,
  chain: string | undefined,
  missing: Grounding["missing"],
): Grounding {
  if (record === undefined) {
    return {
      named,
      found: false,
      missing,
      symbol: null,
      name: null,
      id: null,
      address: null,
      chain: chain ?? null,
      price: null,
      change_24h: null,
      mcap: null,
      liquidity: null,
      holders: null,
      risk: null,
      reasons: [],
    };
  }
  const verdict = assessRisk(record);
  return {
    named,
    found: true,
    missing: null,
    symbol: identityOf(record, "symbol") ?? null,
    name: identityOf(record, "name") ?? null,
    id: identityOf(record, "id") ?? null,
    address: identityOf(record, "address") ?? null,
    chain: identityOf(record, "chain") ?? chain ?? null,
    price: figure(record, "token_metrics.usd_price"),
    change_24h: figure(record, "token_metrics.price_change_percentage_24h"),
    mcap: figure(record, "token_metrics.mcap", "token_metrics.market_cap_usd"),
    liquidity: figure(record, "token_metrics.total_liquidity"),
    holders: figure(record, "token_holder_insights.total_holder_count"),
    risk: verdict.level,
    reasons: verdict.reasons.map(reasonText),
  };
}

const RISK_TONE = { low: "good", medium: "warn", high: "bad" } as const;

/** The table under an answer: one row per token named, found or not. */
export const GROUNDING_COLUMNS: Column[] = [
  {
    header: "TOKEN",
    paths: ["symbol"],
    format: "text",
    max: 14,
    min: 4,
    compute: (record) => ({ text: (record as Grounding).symbol ?? (record as Grounding).named }),
  },
  col("PRICE", "price", "price"),
  col("24H", "change_24h", "percent"),
  col("MCAP", "mcap", "usd"),
  col("LIQ", "liquidity", "usd"),
  col("HOLDERS", "holders", "int"),
  {
    header: "RISK",
    paths: ["risk"],
    format: "text",
    // "no market record" wraps on a narrow terminal rather than pushing the column out.
    min: 6,
    wrap: true,
    compute: (record) => {
      const row = record as Grounding;
      if (!row.found) return { text: row.missing ?? "not found", tone: "bad" };
      return { text: row.risk!.toUpperCase(), tone: RISK_TONE[row.risk!] };
    },
  },
];
