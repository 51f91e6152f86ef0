// The sandbox's synthetic data set: the tokens (tokens.ts) and their records in the API's wire
// types, built on demand so that even 100,000 tokens cost little memory. Nulls and absent sections
// appear where the spec says they can.

import { SOCIAL_WINDOWS, TA_INTERVALS } from "../contract/shapes.js";
import { isDecimalText } from "../numbers/decimal.js";
import { hash32, rng, type TokenBase, TokenSet } from "./tokens.js";

export { AWKWARD_SYMBOLS, type DataOptions, SANDBOX_API_KEY, type TokenBase } from "./tokens.js";

const dec = (value: number, digits: number) => value.toFixed(digits);

/**
 * A change in percent from a `draw` in [0, 1): a ratio between 1 / (1 + spread/100) and
 * 1 + spread/100, even on a log scale, so a value can halve or double but never fall 100% or more.
 */
export function changeOf(draw: number, spread: number): number {
  return (Math.exp((draw * 2 - 1) * Math.log1p(spread / 100)) - 1) * 100;
}

/** Market caps run from $10K to $50B (log-even), as those of listed tokens do. */
const MCAP_DECADES = { from: 4, span: Math.log10(5e10) - 4 };
/** The highest price a sandbox token has, in USD. */
const MAX_PRICE = 1000;

export class SandboxData extends TokenSet {
  directoryRecord(token: TokenBase): Record<string, unknown> {
    return {
      id: token.id,
      symbol: token.symbol,
      name: token.name,
      address: token.address,
      chain: token.chain,
      ecosystem: token.ecosystem,
    };
  }

  private tokenInfo(token: TokenBase): Record<string, unknown> {
    const i = token.index;
    return {
      id: token.id,
      symbol: token.symbol,
      name: token.name,
      handle:
        i % 4 === 0 ? null : `${token.symbol.replace(/[^A-Za-z0-9]/g, "").toLowerCase() || "token"}_${i}`,
      description: i % 6 === 0 ? null : `${token.name} is a synthetic sandbox token on ${token.chain}.`,
      ca: token.address,
      chain: token.chain,
      ecosystem: token.ecosystem,
    };
  }

  /**
   * The numbers of a token, in the API's wire types: drawn from the token alone, so that every
   * endpoint tells the same figures for it. With --live, markets move by small steps: the price
   * (and what follows from it) within 3% of the token's own level each tick, never a new token.
   */
  private numbers(token: TokenBase) {
    const r = rng(hash32(`num:${this.seed}:${token.chain}:${token.index}`));
    // The market cap is drawn, then a price (log-even) that leaves a supply of 1e6 to 1e12 tokens
    // and is under $1,000: from 1e-8 for a small cap of a large supply.
    const cap = 10 ** (MCAP_DECADES.from + r() * MCAP_DECADES.span);
    const lowest = Math.log10(cap) - 12;
    const highest = Math.min(Math.log10(MAX_PRICE), Math.log10(cap) - 6);
    const supply = Math.round(cap / 10 ** (lowest + r() * (highest - lowest)));
    const mcap = cap * this.liveFactor(token, "price");
    const price = mcap / supply;
    const pct = (spread: number) => changeOf(r(), spread);
    return { r, price, supply, mcap, pct };
  }

  /** A token's market cap in USD, as its market record gives it, without making the record. */
  mcapOf(token: TokenBase): number {
    return Number(dec(this.numbers(token).mcap, 2));
  }

  /** 1 without --live; with it, a factor within ±3% that changes every tick. */
  private liveFactor(token: TokenBase, what: string): number {
    return this.drift(`${token.chain}:${token.index}:${what}`);
  }

  /** 1 without --live; with it, a factor within ±3% for `key` that changes every tick. */
  drift(key: string): number {
    if (!this.liveSeconds) return 1;
    const epoch = Math.floor(Date.now() / 1000 / this.liveSeconds);
    return 1 + (rng(hash32(`live:${this.seed}:${key}:${epoch}`))() - 0.5) * 0.06;
  }

  /** A token's figures, drawn once in one order: market, agents, ask and TA all read these. */
  private figures(token: TokenBase) {
    const n = this.numbers(token);
    const indicators = this.indicators(n);
    const sections = this.sections(token, n);
    const metrics = this.metrics(token, n);
    return { n, indicators, sections, metrics };
  }

  private metrics(token: TokenBase, numbers: ReturnType<SandboxData["numbers"]>): Record<string, unknown> {
    const { r, price, supply, mcap, pct } = numbers;
    return {
      usd_price: dec(price, 12).replace(/0+$/, "").replace(/\.$/, ".0"),
      mcap: dec(mcap, 2),
      fdv: dec(mcap * (1 + r()), 2),
      volume_24h: dec(mcap * r() * 0.3, 2),
      total_liquidity: dec(mcap * r() * 0.1, 2),
      price_change_percentage_1h: dec(pct(5), 2),
      price_change_percentage_24h: dec(pct(30), 2),
      price_change_percentage_7d: dec(pct(60), 2),
      price_change_percentage_30d: dec(pct(90), 2),
      volume_change_percentage_7d: dec(pct(80), 2),
      volume_change_percentage_30d: dec(pct(120), 2),
      mcap_change_percentage_7d: dec(pct(60), 2),
      mcap_change_percentage_30d: dec(pct(90), 2),
      price_high_24h: dec(price * (1 + r() * 0.2), 12),
      price_ath: dec(price * (1 + r() * 5), 12),
      circulating_supply: dec(supply * (0.5 + r() * 0.5), 2),
      total_supply: token.index % 11 === 0 ? null : dec(supply, 2),
    };
  }

  private sections(token: TokenBase, numbers: ReturnType<SandboxData["numbers"]>) {
    const { r, supply, pct } = numbers;
    const holders = Math.round(
      (50 + Math.floor(r() * 100_000)) * (1 + (this.liveFactor(token, "holders") - 1) / 3),
    );
    const share = (max: number) => r() * max;
    const change = dec(pct(10), 2);
    const fifty = r();
    const buyers = [supply * share(0.3), share(30), supply * share(0.1), share(10)];
    const { fifty_percentage_holding_wallet_count, ...top } = topHolders(r, supply, fifty);
    const holder = {
      total_holder_count: holders,
      holder_count_change_percentage_24h: change,
      fifty_percentage_holding_wallet_count,
      first_100_buyers_initial_bought: dec(buyers[0]!, 2),
      first_100_buyers_initial_bought_percentage: dec(buyers[1]!, 2),
      first_100_buyers_current_holding: dec(buyers[2]!, 2),
      first_100_buyers_current_holding_percentage: dec(buyers[3]!, 2),
      ...top,
    };
    const smart = {
      top_25_holder_buy_24h: dec(r() * 50_000, 2),
      top_25_holder_sold_24h: dec(r() * 50_000, 2),
    };
    const quiet = token.index % 5 === 0;
    const bundles = Math.floor(r() * 20);
    const devSold = r() < 0.3;
    const dev = {
      wallet_address:
        token.chain === "base"
          ? `0x${hash32(`dev${token.id}`).toString(16).padStart(8, "0").repeat(5)}`
          : `Dev${token.address.slice(3)}`,
      wallet_balance: quiet ? null : dec(supply * share(0.05), 2),
      dev_wallet_total_holding_percentage: quiet ? null : dec(share(5), 2),
      dev_wallet_outflow_txs_count_24h: quiet ? null : Math.floor(r() * 12),
      dev_wallet_outflow_amount_24h: quiet ? null : dec(supply * share(0.01), 2),
      fresh_wallet: r() < 0.2,
      dev_sold: devSold,
      dev_sold_percentage: devSold ? dec(share(100), 2) : "0.00",
      bundle_wallet_count: bundles,
      bundle_wallet_supply_percentage: bundles === 0 ? null : dec(share(25), 2),
    };
    const social: Record<string, number> = {};
    for (const w of SOCIAL_WINDOWS) {
      social[`mindshare_${w}`] = Number((r() * 2).toFixed(4));
      social[`mindshare_change_percentage_${w}`] = Number(pct(200).toFixed(2));
      social[`impression_count_${w}`] = Math.floor(r() * 5_000_000);
      social[`impression_count_change_percentage_${w}`] = Number(pct(150).toFixed(2));
      social[`engagement_count_${w}`] = Math.floor(r() * 200_000);
      social[`engagement_count_change_percentage_${w}`] = Number(pct(150).toFixed(2));
      social[`follower_count_${w}`] = Math.floor(r() * 500_000);
      social[`smart_follower_count_${w}`] = Math.floor(r() * 5_000);
    }
    return { holder, smart, dev, social };
  }

  private indicators(numbers: ReturnType<SandboxData["numbers"]>): Record<string, string> {
    const { r, price } = numbers;
    return {
      support: dec(price * (0.7 + r() * 0.2), 12),
      resistance: dec(price * (1.1 + r() * 0.3), 12),
      rsi: dec(5 + r() * 90, 2),
      sma: dec(price * (0.9 + r() * 0.2), 12),
    };
  }

  private updatedAt(token: TokenBase): string {
    return new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - token.index * 37_000).toISOString();
  }

  /** A market record. Every ninth token lacks the optional sections, as an early sample did. */
  marketRecord(token: TokenBase): Record<string, unknown> {
    const { indicators, sections: s, metrics } = this.figures(token);
    const record: Record<string, unknown> = {
      id: token.id,
      token_info: this.tokenInfo(token),
      technical_indicators: indicators,
    };
    if (token.index % 9 !== 4) {
      record.token_holder_insights = s.holder;
      record.smart_money_insights = s.smart;
      record.dev_wallet_insights = s.dev;
    }
    record.token_metrics = metrics;
    if (token.index % 9 !== 4) record.x_social_metrics = s.social;
    record.last_updated_at = this.updatedAt(token);
    return record;
  }

  agentRecord(token: TokenBase): Record<string, unknown> {
    const { indicators, sections: s, metrics } = this.figures(token);
    const statuses = ["SAFE", "CAUTION", "SAFE", "HIGH_RISK", "SAFE"];
    return {
      id: token.id,
      rug_status: statuses[token.index % statuses.length],
      agent_info: this.tokenInfo(token),
      technical_indicators: indicators,
      agent_holder_insights: s.holder,
      smart_money_insights: s.smart,
      dev_wallet_insights: s.dev,
      agent_metrics: metrics,
      x_social_metrics: s.social,
      last_updated_at: this.updatedAt(token),
    };
  }

  /** A TA record; young tokens lack the long intervals (the server does not invent them). */
  taRecord(token: TokenBase): Record<string, unknown> {
    const { n, indicators } = this.figures(token);
    const record: Record<string, unknown> = {
      id: token.id,
      token_info: this.tokenInfo(token),
      technical_indicators: indicators,
    };
    const young = token.index % 7 === 3;
    const changes = this.changes(token, n);
    TA_INTERVALS.forEach((interval, index) => {
      if (young && index >= 6) return;
      record[`price_change_percentage_${interval}`] = changes[interval];
    });
    record.last_updated_at = this.updatedAt(token);
    return record;
  }

  /**
   * A TA record as the provider documents it: keyed `token_id`, indicators per interval inside
   * technical_indicators, the price changes in token_metrics. Odd tokens send numbers (newer
   * samples), even ones strings (older pages); even ones carry token_info, odd ones the symbol at
   * the top level, since where the symbol sits is not shown.
   */
  taRecordDocumented(token: TokenBase): Record<string, unknown> {
    const { n, indicators: overall } = this.figures(token);
    const changes = this.changes(token, n);
    const odd = token.index % 2 === 1;
    const value = (amount: number, digits: number) =>
      odd ? Number(amount.toFixed(digits)) : dec(amount, digits);
    const young = token.index % 7 === 3;
    const indicators: Record<string, unknown> = {};
    const metrics: Record<string, unknown> = {};
    TA_INTERVALS.forEach((interval, index) => {
      if (young && index >= 6) return;
      metrics[`price_change_percentage_${interval}`] = odd ? Number(changes[interval]) : changes[interval];
      if (interval === "30d") return;
      // The 1d indicators are the market record's own (one truth); the others drawn per interval.
      const daily = interval === "1d";
      const pick = (kind: string, amount: number, digits: number) =>
        daily ? (odd ? Number(overall[kind]) : overall[kind]) : value(amount, digits);
      indicators[`support_${interval}`] = pick("support", n.price * (0.7 + n.r() * 0.2), 12);
      indicators[`resistance_${interval}`] = pick("resistance", n.price * (1.1 + n.r() * 0.3), 12);
      indicators[`rsi_${interval}`] = pick("rsi", 5 + n.r() * 90, 2);
      indicators[`sma_${interval}`] = pick("sma", n.price * (0.9 + n.r() * 0.2), 12);
    });
    const identity = odd
      ? {
          token_symbol: token.symbol,
          token_name: token.name,
          token_address: token.address,
          chain: token.chain,
        }
      : { token_info: this.tokenInfo(token) };
    return {
      token_id: token.id,
      ...identity,
      technical_indicators: indicators,
      token_metrics: metrics,
      last_updated_at: this.updatedAt(token),
    };
  }

  /** A market record as a newer documentation page shows it: JSON numbers, `market_cap_usd`. */
  marketRecordNumbers(token: TokenBase): Record<string, unknown> {
    const record = toNumbers(this.marketRecord(token)) as Record<string, Record<string, unknown>>;
    const metrics = record.token_metrics!;
    record.token_metrics = Object.fromEntries(
      Object.entries(metrics).map(([key, figure]) => [key === "mcap" ? "market_cap_usd" : key, figure]),
    );
    return record;
  }

  /**
   * A token's price change per TA interval: 1h, 1d (24h), 1w (7d) and 30d are the market record's
   * own; the others (1m, 5m, 15m, 4h) drawn after every market figure.
   */
  private changes(token: TokenBase, numbers: ReturnType<SandboxData["numbers"]>): Record<string, string> {
    const m = this.figures(token).metrics as Record<string, string>;
    const own: Record<string, string | undefined> = {
      "1h": m.price_change_percentage_1h,
      "1d": m.price_change_percentage_24h,
      "1w": m.price_change_percentage_7d,
      "30d": m.price_change_percentage_30d,
    };
    return Object.fromEntries(
      TA_INTERVALS.map((interval, index) => [interval, own[interval] ?? dec(numbers.pct(2 + index * 8), 2)]),
    );
  }

  askDetail(token: TokenBase): Record<string, unknown> {
    const { metrics: m } = this.figures(token);
    return {
      token_ticker: token.symbol,
      token_ca: token.address,
      token_name: token.name,
      token_id: token.id,
      chain: token.chain,
      current_usd_price: m.usd_price,
      last_24_hrs_price_change_percentage: m.price_change_percentage_24h,
      market_cap: m.mcap,
      last_24_hrs_market_cap_change_percentage: m.mcap_change_percentage_7d,
      last_24_hrs_volume: m.volume_24h,
      last_24_hrs_price_high: m.price_high_24h,
    };
  }
}

/**
 * The top holders' shares and balances: the top 10 are among the top 50, who are among the top 100,
 * so each share and balance is at least the one before; a balance is its share of the supply. How
 * many wallets hold half the supply follows from them. Each figure keeps its place in the token's
 * draws (the balances' draws too), so the figures drawn after these are the same as ever.
 */
function topHolders(random: () => number, supply: number, fifty: number): Record<string, string> {
  const draws = Array.from({ length: 6 }, () => random());
  const top10 = draws[1]! * 70;
  const top50 = top10 + draws[3]! * (95 - top10) * 0.6;
  const top100 = top50 + draws[5]! * (100 - top50) * 0.6;
  const wallets =
    top10 >= 50
      ? 1 + Math.floor(fifty * 10)
      : top50 >= 50
        ? 11 + Math.floor(fifty * 40)
        : top100 >= 50
          ? 51 + Math.floor(fifty * 50)
          : 101 + Math.floor(fifty * 400);
  const top = (count: number, pct: number) => ({
    [`top_${count}_holder_balance`]: dec((supply * pct) / 100, 2),
    [`top_${count}_holder_percentage`]: dec(pct, 2),
  });
  return {
    fifty_percentage_holding_wallet_count: dec(wallets, 0),
    ...top(10, top10),
    ...top(50, top50),
    ...top(100, top100),
  };
}

/** Every decimal string in a record as a JSON number (ids and addresses are not decimals). */
function toNumbers(value: unknown, key = ""): unknown {
  if (typeof value === "string") return isDecimalText(value) && !/(^|_)id$/.test(key) ? Number(value) : value;
  if (Array.isArray(value)) return value.map((item) => toNumbers(item));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, toNumbers(item, field)]));
  return value;
}
