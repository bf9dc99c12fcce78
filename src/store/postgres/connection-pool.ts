import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { PoolFigures, PoolObserver } from '../store.js';

export interface ConnectionPoolOptions {
  /** Connections at most, open or being opened (DATABASE_POOL_SIZE). */
  size: number;
  /** Connections kept open, idle or not, from warm() on (DATABASE_POOL_MIN). */
  min: number;
  /** Callers waiting for a connection at most; one more is refused at once (DATABASE_POOL_QUEUE). */
  queueLimit: number;
  /** How long opening one new connection may take (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /** How long a caller that gives no limit of its own waits for a connection (REQUEST_TIMEOUT_MS). */
  waitLimitMs: number;
  statementTimeoutMs: number;
}

/** No connection for the caller: the database is not at fault, the pool is busy or closing (answered 503). */
export class NoConnection extends Error {}

/** Every connection was in use and the queue of waiting callers was full: answered 503 at once. */
export class ConnectionQueueFull extends NoConnection {
  constructor(queueLimit: number) {
    super(`every connection of the pool is in use and ${queueLimit} callers are waiting for one already`);
  }
}

/** The caller's time ran out before a connection came free: answered 503. */
export class ConnectionWaitExpired extends NoConnection {
  constructor(waitedMs: number) {
    super(`no connection of the pool came free within the ${Math.round(waitedMs)} ms the caller had`);
  }
}

/** A connection lent to one caller; `release` gives it back (once). */
export interface LentConnection {
  query: pg.PoolClient['query'];
  release(): void;
}

interface Waiter {
  granted(): void;
  failed(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * PostgreSQL connections for the store, lent in the order asked for (FIFO).
 *
 * pg's Pool applies one time-out, `connectionTimeoutMillis`, both to opening a connection and to
 * waiting in its queue, and a queued caller cannot be taken out of its queue before that time-out.
 * So the waiting happens here, in front of the pool: a caller waits for one of `size` permits for as
 * long as its own time allows, and the pool is asked for a connection only with a permit in hand. It
 * then never queues (at most `size` callers hold permits, and it holds at most `size` connections),
 * and its `connectionTimeoutMillis` is left to bound the one thing it still does: opening one.
 * docs/decisions.md, "Waiting for a database connection".
 */
export class ConnectionPool {
  private readonly pool: pg.Pool;
  /** Permits held: connections lent, or being opened or taken from the idle ones for a caller. */
  private held = 0;
  private readonly waiters: Waiter[] = [];
  private observer: PoolObserver | null = null;
  private warming: Promise<void> | null = null;

  constructor(
    connectionString: string,
    private readonly options: ConnectionPoolOptions,
  ) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.size,
      // Idle connections are closed after idleTimeoutMillis, but never below `min`.
      min: options.min,
      connectionTimeoutMillis: options.connectTimeoutMs,
      statement_timeout: options.statementTimeoutMs,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its connection (database restart) must not crash the process.
    this.pool.on('error', () => {});
    // Nor may a checked-out one: pg emits 'error' on the client as well as failing its queries, and the
    // pool listens only while the client is idle. The caller sees the failure through its query (or
    // the next one, "not queryable"), and the pool discards the client on release.
    this.pool.on('connect', (client) => {
      client.on('error', () => {});
    });
  }

  /** Where /metrics reads the waits and refusals from (pool-metrics.ts). */
  observe(observer: PoolObserver): void {
    this.observer = observer;
  }

  figures(): PoolFigures {
    return {
      size: this.options.size,
      min: this.options.min,
      queueLimit: this.options.queueLimit,
      open: this.pool.totalCount,
      idle: this.pool.idleCount,
      inUse: this.held,
      waiting: this.waiters.length,
    };
  }

  /**
   * A connection, within `waitMs` (the caller's time left; the default wait otherwise). Refused at
   * once when the queue is full; fails as pg does when a new connection cannot be opened within the
   * connect time-out.
   */
  async connect(waitMs: number = this.options.waitLimitMs): Promise<LentConnection> {
    await this.permit(waitMs);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      this.handOn();
      // The database does not take new connections: the callers waiting now would each learn the
      // same, one connect time-out after the other. They learn it now.
      this.failWaiters(error as Error);
      throw error;
    }
    let lent = true;
    return {
      query: client.query.bind(client) as pg.PoolClient['query'],
      release: () => {
        if (!lent) return;
        lent = false;
        // pg discards a client whose connection broke (not queryable) rather than keeping it idle.
        client.release();
        this.handOn();
      },
    };
  }

  /** Runs one query on a connection of its own (pg's pool.query, with this pool's waiting). */
  async query<R extends pg.QueryResultRow>(config: pg.QueryConfig, waitMs?: number): Promise<pg.QueryResult<R>> {
    const connection = await this.connect(waitMs);
    try {
      return (await connection.query(config)) as unknown as pg.QueryResult<R>;
    } finally {
      connection.release();
    }
  }

  /**
   * Opens connections until `min` are open; a second call while they open waits for the same ones
   * (the pool counts a connection being opened as open already). They are asked for together, so
   * that each is one of its own: one given back early would be lent again rather than another opened.
   */
  warm(): Promise<void> {
    if (this.warming) return this.warming;
    if (this.pool.totalCount >= this.options.min) return Promise.resolve();
    this.warming = (async () => {
      const lent = await Promise.allSettled(Array.from({ length: this.options.min }, () => this.connect()));
      for (const outcome of lent) if (outcome.status === 'fulfilled') outcome.value.release();
      const failure = lent.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
    })().finally(() => {
      this.warming = null;
    });
    return this.warming;
  }

  async end(): Promise<void> {
    this.failWaiters(new NoConnection('the connection pool is closing'));
    await this.pool.end();
  }

  private async permit(waitMs: number): Promise<void> {
    if (this.held < this.options.size && this.waiters.length === 0) {
      this.held += 1;
      this.observer?.waited(0);
      return;
    }
    if (this.waiters.length >= this.options.queueLimit || waitMs <= 0) {
      this.observer?.refused();
      throw this.waiters.length >= this.options.queueLimit
        ? new ConnectionQueueFull(this.options.queueLimit)
        : new ConnectionWaitExpired(0);
    }
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        granted: resolve,
        failed: reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          this.observer?.refused();
          reject(new ConnectionWaitExpired(performance.now() - started));
        }, waitMs),
      };
      this.waiters.push(waiter);
    });
    this.observer?.waited((performance.now() - started) / 1000);
  }

  /** A permit given back goes to the first waiter, if any, else back to the pool. */
  private handOn(): void {
    const next = this.waiters.shift();
    if (!next) {
      this.held -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.granted();
  }

  private failWaiters(error: Error): void {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.failed(error);
    }
  }
}
