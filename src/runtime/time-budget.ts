/**
 * A request's time limit, as its transaction sees it. Work past the limit must not commit: the
 * client has been told 503, that nothing was done, and it may retry. Work that reached its commit
 * before the limit is waited for and answered as it turned out, so an answer is never contradicted
 * by what the store holds afterwards.
 */
export class TimeBudget {
  private passed = false;
  private committing = false;
  private readonly endsAt: number;

  constructor(limitMs: number) {
    this.endsAt = Date.now() + limitMs;
  }

  /** Milliseconds left before the limit (0 or less once it has passed). */
  remainingMs(): number {
    return this.passed ? 0 : this.endsAt - Date.now();
  }

  /** True once the limit has passed: the work need not go on. */
  get expired(): boolean {
    return this.passed;
  }

  /** Called by the work as its last step before the commit. False past the limit: roll back. */
  claimCommit(): boolean {
    if (this.passed) return false;
    this.committing = true;
    return true;
  }

  /** Marks the limit as passed; true when the work can no longer commit (it has not claimed its commit). */
  expire(): boolean {
    this.passed = true;
    return !this.committing;
  }
}
