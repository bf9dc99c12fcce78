/**
 * The sign-in keys (an address, an email) the store's limits refused lately, in this process's
 * memory: an attempt on one of them is refused (429) without a trip to the store, so a flood of
 * sign-in posts from one address costs the store one refused attempt per key and minute, not one
 * per post. The store stays the judge: a refusal is remembered for a minute at most (never past its
 * window), after which the store is asked again, and a success in this process forgets its keys; so
 * an operator whose double-click was refused beside a sign-in under way is not kept out for long.
 */
export const REMEMBER_REFUSAL_MS = 60_000;

/** The most keys remembered; past it the oldest goes first, and its attempts go to the store again. */
export const MOST_REMEMBERED = 10_000;

export class RememberedRefusals {
  // Key → until when (ms since the epoch, by the service's clock); a Map keeps the order of insertion.
  private readonly until = new Map<string, number>();

  /** Whether one of `keys` was refused and is remembered at `now`. */
  refuses(keys: readonly string[], now: string): boolean {
    const at = Date.parse(now);
    return keys.some((key) => {
      const until = this.until.get(key);
      if (until === undefined) return false;
      if (at < until) return true;
      this.until.delete(key);
      return false;
    });
  }

  /** Remembers the store's refusal of `key`, until `windowEndsAt` or for REMEMBER_REFUSAL_MS, whichever comes first. */
  remember(key: string, now: string, windowEndsAt: number): void {
    this.until.delete(key);
    if (this.until.size >= MOST_REMEMBERED) this.forgetPast(now);
    if (this.until.size >= MOST_REMEMBERED) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, Math.min(Date.parse(now) + REMEMBER_REFUSAL_MS, windowEndsAt));
  }

  forget(keys: readonly string[]): void {
    for (const key of keys) this.until.delete(key);
  }

  /** Drops what is no longer refused at `now`. */
  forgetPast(now: string): void {
    const at = Date.parse(now);
    for (const [key, until] of this.until) if (until <= at) this.until.delete(key);
  }

  get size(): number {
    return this.until.size;
  }
}
