// The sandbox's tokens: deterministic (the same seed gives the same tokens), each made from its
// index, with lookups by symbol, address and id. Their records are built on demand (data.ts).

import { type Chain, ECOSYSTEM } from "../contract/api.js";

export const SANDBOX_API_KEY = "ti_sandbox_demo_key_4f9a2c";

export interface DataOptions {
  /** Tokens on base; solana gets 30% of that (1,000 and 300 by default). */
  tokens?: number;
  seed?: number;
  /** Markets move: the numbers change every this many seconds (default: they never change). */
  liveSeconds?: number;
}

/** Tickers that break naive batching (docs/api-notes.md, "Token lists"): at fixed places in the base list. */
export const AWKWARD_SYMBOLS = [
  "A&B",
  "C+D",
  "HELLO WORLD",
  "ROCKET🚀",
  "$DOLLAR",
  "50%OFF",
  "Q?",
  "HASH#TAG",
  "EQ=1",
  "COMMA,COIN",
];

/**
 * Tokens the documentation's examples name, at fixed places in the base list so the examples show
 * data: those at a multiple of 3 are in the ecosystem, like every third token.
 */
export const NAMED_TOKENS: Record<number, { symbol: string; name: string }> = {
  30: { symbol: "VIRTUAL", name: "Virtual Protocol" },
  31: { symbol: "AERO", name: "Aerodrome Finance" },
  32: { symbol: "DEGEN", name: "Degen" },
  33: { symbol: "AIXBT", name: "aixbt by Virtuals" },
  34: { symbol: "BRETT", name: "Brett" },
  35: { symbol: "BAKO", name: "Bako" },
  36: { symbol: "GAME", name: "GAME by Virtuals" },
  39: { symbol: "LUNA", name: "Luna by Virtuals" },
};

const SYLLABLES = [
  "ba",
  "ko",
  "zi",
  "ru",
  "ne",
  "vo",
  "la",
  "mi",
  "ta",
  "xe",
  "po",
  "gu",
  "fi",
  "da",
  "sy",
  "qu",
  "ar",
  "on",
  "el",
  "ix",
];
const WORDS = [
  "Aether",
  "Byte",
  "Cipher",
  "Drift",
  "Echo",
  "Flux",
  "Glyph",
  "Helix",
  "Ion",
  "Jolt",
  "Kite",
  "Lumen",
  "Mote",
  "Nova",
  "Orbit",
  "Pulse",
  "Quark",
  "Rune",
  "Sigil",
  "Tide",
];
const SUFFIXES = ["Protocol", "AI", "Agent", "Network", "Labs", "Coin", "Finance", "DAO"];
const RESERVED = new Set(Object.values(NAMED_TOKENS).map((token) => token.symbol));
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function hash32(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TokenBase {
  index: number;
  chain: Chain;
  id: string;
  symbol: string;
  name: string;
  address: string;
  ecosystem: string;
}

export class TokenSet {
  readonly seed: number;
  protected readonly liveSeconds: number | undefined;
  readonly counts: Record<Chain, number>;
  private readonly bySymbol = new Map<string, TokenBase[]>();
  private readonly byAddress = new Map<string, TokenBase>();
  private readonly byId = new Map<string, TokenBase>();
  private readonly tokens: Record<Chain, TokenBase[]>;

  constructor(options: DataOptions = {}) {
    this.seed = options.seed ?? 42;
    this.liveSeconds = options.liveSeconds;
    const base = Math.max(1, options.tokens ?? 1000);
    this.counts = { base, solana: Math.max(1, Math.round(base * 0.3)) };
    this.tokens = { base: [], solana: [] };
    for (const chain of ["base", "solana"] as const) {
      const used = new Set<string>();
      for (let i = 0; i < this.counts[chain]; i++) {
        const token = this.makeBase(chain, i, used);
        this.tokens[chain].push(token);
        const key = token.symbol.toLowerCase();
        const list = this.bySymbol.get(key) ?? [];
        list.push(token);
        this.bySymbol.set(key, list);
        this.byAddress.set(token.address.toLowerCase(), token);
        this.byId.set(token.id, token);
      }
    }
  }

  private makeBase(chain: Chain, index: number, used: Set<string>): TokenBase {
    const r = rng(hash32(`${this.seed}:${chain}:${index}`));
    let symbol: string;
    const named = chain === "base" ? NAMED_TOKENS[index] : undefined;
    if (named) symbol = named.symbol;
    else if (chain === "base" && index >= 10 && index < 10 + AWKWARD_SYMBOLS.length)
      symbol = AWKWARD_SYMBOLS[index - 10]!;
    else {
      const n = 2 + Math.floor(r() * 2);
      symbol = Array.from({ length: n }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)])
        .join("")
        .toUpperCase();
      if (used.has(symbol) || RESERVED.has(symbol)) symbol = `${symbol}${index}`;
    }
    used.add(symbol);
    const made = `${WORDS[Math.floor(r() * WORDS.length)]} ${SUFFIXES[Math.floor(r() * SUFFIXES.length)]} ${index}`;
    const name = named?.name ?? made;
    const address =
      chain === "base"
        ? `0x${Array.from({ length: 40 }, () => Math.floor(r() * 16).toString(16)).join("")}`
        : Array.from({ length: 44 }, () => BASE58[Math.floor(r() * BASE58.length)]).join("");
    const id =
      hash32(`id:${this.seed}:${chain}:${index}`).toString(16).padStart(8, "0") +
      index.toString(16).padStart(8, "0") +
      (chain === "base" ? "b45e" : "501a");
    return {
      index,
      chain,
      id,
      symbol,
      name,
      address,
      ecosystem: index % 3 === 0 ? ECOSYSTEM : chain,
    };
  }

  list(chain: Chain | undefined, ecosystem: string | undefined): TokenBase[] {
    const all = chain ? this.tokens[chain] : [...this.tokens.base, ...this.tokens.solana];
    return ecosystem ? all.filter((token) => token.ecosystem === ecosystem) : all;
  }

  findBySymbols(chain: Chain | undefined, symbols: string[]): TokenBase[] {
    return this.inListOrder(
      chain,
      symbols.flatMap((s) => this.bySymbol.get(s.toLowerCase()) ?? []),
    );
  }

  findByAddresses(chain: Chain | undefined, addresses: string[]): TokenBase[] {
    return this.inListOrder(
      chain,
      addresses.map((a) => this.byAddress.get(a.toLowerCase())),
    );
  }

  findByIds(chain: Chain | undefined, ids: string[]): TokenBase[] {
    return this.inListOrder(
      chain,
      ids.map((id) => this.byId.get(id)),
    );
  }

  /** Matches as the listing would order them (base first, then by index), without repeats. */
  private inListOrder(chain: Chain | undefined, found: Array<TokenBase | undefined>): TokenBase[] {
    const unique = new Set(
      found.filter((token): token is TokenBase => token !== undefined && (!chain || token.chain === chain)),
    );
    return [...unique].sort((a, b) =>
      a.chain === b.chain ? a.index - b.index : a.chain === "base" ? -1 : 1,
    );
  }

  token(chain: Chain, index: number): TokenBase | undefined {
    return this.tokens[chain][index];
  }
}
