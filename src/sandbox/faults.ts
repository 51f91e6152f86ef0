// Fault injection for the sandbox, seeded so that a run repeats: whether a request fails depends on
// the seed, the request (without its key) and how many times that request was seen before.

import { rng } from "./tokens.js";

export interface FaultOptions {
  /** Each answer leaves this many ms after its request came, the sandbox's work inside them. */
  latencyMs?: number;
  /** 502 Bad Gateway. */
  failRate?: number;
  /** Throttling answer (throttleStatus, default 429, with Retry-After: 0). */
  throttleRate?: number;
  throttleStatus?: number;
  /** The connection is destroyed before any answer. */
  resetRate?: number;
  /** A 200 whose body stops halfway. */
  truncateRate?: number;
  /** A gateway's HTML error page (502, text/html). */
  htmlRate?: number;
  /** The request is accepted and never answered. */
  hangRate?: number;
  /** A page repeats a record from the page before it. */
  duplicateRate?: number;
  seed?: number;
}

export type Fault = "fail" | "throttle" | "reset" | "truncate" | "html" | "hang" | undefined;

export class FaultPlan {
  private readonly attempts = new Map<string, number>();
  constructor(readonly options: FaultOptions = {}) {}

  private roll(key: string): () => number {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    let h = 2166136261 ^ (this.options.seed ?? 7);
    const text = `${key}#${n}`;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return rng(h >>> 0);
  }

  /** Decides the fault (if any) for one request. */
  pick(requestKey: string): { fault: Fault; random: () => number } {
    const random = this.roll(requestKey);
    const o = this.options;
    const table: Array<[Fault, number | undefined]> = [
      ["reset", o.resetRate],
      ["hang", o.hangRate],
      ["throttle", o.throttleRate],
      ["fail", o.failRate],
      ["html", o.htmlRate],
      ["truncate", o.truncateRate],
    ];
    for (const [fault, rate] of table) {
      if (rate && random() < rate) return { fault, random };
    }
    return { fault: undefined, random };
  }
}
