// Each token's requests a minute (--token-rate): a bucket that holds a minute's worth and fills
// steadily, so a client may burst after a quiet spell and is held to the rate after that. A
// request past it is refused with the seconds until the next one is let through.

/** The default of --token-rate: requests a minute per token. */
export const DEFAULT_TOKEN_RATE = 120;

interface Bucket {
  left: number;
  at: number;
}

export class TokenRate {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request for `name`: undefined when let through, else the seconds to wait. */
  take(name: string): number | undefined {
    const now = this.now();
    const perMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(name) ?? { left: this.perMinute, at: now };
    bucket.left = Math.min(this.perMinute, bucket.left + (now - bucket.at) * perMs);
    bucket.at = now;
    this.buckets.set(name, bucket);
    if (bucket.left >= 1) {
      bucket.left -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.left) / perMs / 1000));
  }
}
