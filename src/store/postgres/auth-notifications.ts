import pg from 'pg';

/** How long to wait before listening again after the connection was lost. */
const RECONNECT_MS = 1000;

/**
 * Listens to `airorder_auth`, which triggers on access tokens and agencies notify in the
 * transaction that changes them (migration 004), in whatever process. The marker moves on with
 * every notification and every reconnection; while the connection is down it is null, so nothing
 * is cached then. PostgreSQL sends a notification when its transaction commits: a revocation by
 * another process takes effect here as soon as it arrives, on loopback well within a millisecond.
 */
export class AuthNotifications {
  private client: pg.Client | null = null;
  private listening = false;
  private changes = 0;
  private closed = false;
  /** Not before this time (ms) is listening tried again after the connection was lost. */
  private retryAt = 0;

  constructor(
    private readonly connectionString: string,
    private readonly connectTimeoutMs: number,
  ) {}

  /** A value that changes whenever tokens or agencies may have changed; null when this cannot be told. */
  marker(): string | null {
    if (!this.listening) {
      if (this.client === null && !this.closed && Date.now() >= this.retryAt) void this.listen();
      return null;
    }
    return String(this.changes);
  }

  /** Moves the marker on: this process changed tokens or agencies through another connection. */
  changed(): void {
    this.changes += 1;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: this.connectTimeoutMs,
    });
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = null;
      void client.end().catch(() => {});
      this.retryAt = Date.now() + RECONNECT_MS;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => {
      this.changes += 1;
    });
    try {
      await client.connect();
      await client.query('listen airorder_auth');
      if (this.client !== client) return;
      // What changed while nobody listened is unknown: whatever was cached before is stale.
      this.changes += 1;
      this.listening = true;
    } catch {
      lost();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => {});
  }
}
