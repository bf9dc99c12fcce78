let changes = 0;

/**
 * Called after a transaction of this process that changed access tokens or agencies has committed
 * (not before: a lookup in between would cache the old state under the new count).
 */
export function noteAuthChange(): void {
  changes += 1;
}

/** How many such changes this process has made; with the store's own marker, what invalidates cached token lookups. */
export function authChanges(): number {
  return changes;
}
