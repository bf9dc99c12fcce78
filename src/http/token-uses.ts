import type { TokenUse } from '../store/repositories/tokens-repository.js';
import type { Store } from '../store/store.js';

/**
 * A token's stored last use is at most this much earlier than its real last use: a process notes a
 * token's use again only once this long has passed since it last noted one.
 */
export const LAST_USE_PRECISION_MS = 5 * 60_000;
/** How long noted uses wait to be written, all in one transaction; the rest when the service closes. */
export const LAST_USE_WRITE_DELAY_MS = 60_000;
/** Past this many tokens, what was noted when is forgotten: each is then noted once more. */
const REMEMBERED_LIMIT = 10_000;

/**
 * Last use of tokens without a write per request (the request path is the hot one): the lookup tells
 * this of every accepted token, and at most once per LAST_USE_PRECISION_MS per token one use goes
 * into the next batch, written a minute later. Batching keeps the writes, and on PostgreSQL the
 * dropping of the token cache after each transaction of this process (postgres-store.ts), to one a
 * minute at most.
 */
export class TokenUses {
  /** When this process last noted each token's use, in ms. */
  private readonly noted = new Map<string, number>();
  private batch = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown) => void,
  ) {}

  used(tokenId: string, now: string): void {
    const at = Date.parse(now);
    const last = this.noted.get(tokenId);
    if (last !== undefined && at - last < LAST_USE_PRECISION_MS) return;
    if (this.noted.size >= REMEMBERED_LIMIT) this.noted.clear();
    this.noted.set(tokenId, at);
    this.batch.set(tokenId, now);
    // Unref'd: a batch waiting never keeps a process alive; close() writes it.
    this.timer ??= setTimeout(() => {
      this.flush();
    }, LAST_USE_WRITE_DELAY_MS).unref();
  }

  /** Writes what is noted and not yet written, and waits for every write begun. */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.batch.size === 0) return;
    const uses: TokenUse[] = [...this.batch].map(([tokenId, usedAt]) => ({ tokenId, usedAt }));
    this.batch = new Map();
    this.writing = this.writing
      .then(() => this.store.write((tx) => tx.recordTokenUses(uses)))
      .catch((error: unknown) => {
        // Noted again at the token's next use rather than lost for the whole interval.
        for (const use of uses) this.noted.delete(use.tokenId);
        this.onError(error);
      });
  }
}
