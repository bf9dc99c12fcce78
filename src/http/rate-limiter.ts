/**
 * A token bucket per access token, in this process's memory: `ratePerSecond` requests a second on
 * average, `burst` at once. With several processes each keeps its own buckets, so the limit a
 * client sees is per process (see docs/operations.md).
 */
export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {}

  take(key: string, nowMs: number): RateDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: nowMs };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.updatedAt) / 1000) * this.ratePerSecond);
    bucket.updatedAt = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.forgetFullBuckets(nowMs);

    const remaining = Math.floor(bucket.tokens);
    const untilFull = Math.ceil((this.burst - bucket.tokens) / this.ratePerSecond);
    const headers: Record<string, string> = {
      'ratelimit-limit': String(this.burst),
      'ratelimit-remaining': String(remaining),
      'ratelimit-reset': String(untilFull),
      'ratelimit-policy': `${this.burst};w=${Math.max(1, Math.round(this.burst / this.ratePerSecond))}`,
    };
    if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond)));
    return { allowed, headers };
  }

  /** How many keys the limiter holds a bucket for: past 100,000, only those not yet refilled. */
  get trackedKeys(): number {
    return this.buckets.size;
  }

  /** A bucket that has refilled is the same as no bucket: dropping it bounds memory. */
  private forgetFullBuckets(nowMs: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((nowMs - bucket.updatedAt) / 1000) * this.ratePerSecond >= this.burst)
        this.buckets.delete(key);
    }
  }
}
