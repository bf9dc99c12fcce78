import type { ActiveToken } from '../store/repositories/tokens-repository.js';
import type { Store } from '../store/store.js';
import type { TokenUses } from './token-uses.js';

/** Enough for every agency of a large operator; past it the cache starts again empty. */
const CACHE_LIMIT = 10_000;

interface Cached {
  marker: string;
  token: ActiveToken;
}

/**
 * Finds the token of a request, keeping found tokens in memory for as long as the store's marker
 * says that no token or agency can have changed (on SQLite: no other process has committed, and
 * this one has changed no token). A revocation therefore takes effect on the next request, as
 * without the cache, and a request spends one read fewer. Unknown and revoked tokens are never
 * kept, and expiry is checked on every use.
 */
export class TokenLookup {
  private readonly cached = new Map<string, Cached>();

  constructor(
    private readonly store: Store,
    private readonly uses: TokenUses | null = null,
  ) {}

  async find(tokenHash: string, now: string): Promise<ActiveToken | null> {
    // Read before the lookup: a change in between leaves an entry under the old marker, never used.
    const marker = this.store.authMarker();
    let token: ActiveToken | null;
    // Entries are kept only under a marker, so a store without one never finds one here.
    const hit = this.cached.get(tokenHash);
    if (hit && hit.marker === marker) {
      token = hit.token;
    } else {
      token = await this.store.read.findActiveToken(tokenHash);
      if (marker !== null) this.remember(tokenHash, marker, token);
    }
    if (!token || (token.expiresAt !== null && token.expiresAt <= now)) return null;
    this.uses?.used(token.tokenId, now);
    return token;
  }

  private remember(tokenHash: string, marker: string, token: ActiveToken | null): void {
    if (!token) {
      this.cached.delete(tokenHash);
      return;
    }
    if (this.cached.size >= CACHE_LIMIT) this.cached.clear();
    this.cached.set(tokenHash, { marker, token });
  }
}
