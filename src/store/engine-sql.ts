import type { Kysely } from 'kysely';
import type { Statement } from './statement.js';

/**
 * What the SQL of the two engines does not share, supplied by each engine (sqlite/engine-sql.ts,
 * postgres/engine-sql.ts) for the executors it opens. The shared repositories ask their executor for
 * these pieces and never which engine they run on (docs/decisions.md, "Where the engines differ").
 */
export interface EngineSql {
  /** The text the engine's driver takes, from portable text with `?` placeholders. */
  text(portable: string): string;
  /** Data-changing statements on distinct rows, as the statements to send: as few round trips as the engine allows. */
  together(statements: readonly Statement[]): readonly Statement[];
  /**
   * Appended to a SELECT to hold its rows until the transaction ends; empty where write
   * transactions run one at a time anyway (then there is nothing to lock).
   */
  readonly lockRows: string;
  /** Appended to a SELECT … LIMIT to take rows that no other transaction is taking at the same moment. */
  readonly claimRows: string;
  /**
   * A condition (beginning with ` and`, or empty) that keeps to events whose writing transaction
   * can no longer be overtaken by an older one still running (events-repository.ts, `listEvents`).
   */
  readonly settledEvents: string;
  /**
   * The order's record (order-record.ts) as the engine stores it: `recordIn` wraps the JSON text
   * written in place of a `?`, `recordOut` reads the column `record` back as JSON text.
   */
  readonly recordIn: string;
  readonly recordOut: string;
  /** The schema's engine-specific parts, for the migrations that made them. */
  readonly schema: EngineSchema;
}

type Schema = Kysely<unknown>;
type ColumnType = Parameters<ReturnType<Schema['schema']['createTable']>['addColumn']>[1];

export interface EngineSchema {
  /** `events.position`: in commit order on one writer, generated where transactions insert side by side (migration 003). */
  readonly eventPosition: ColumnType;
  /** `events.tx`'s default: the writing transaction's id where transactions insert side by side (migration 003). */
  readonly eventTransaction: unknown;
  /** `orders.version` (migration 004). */
  readonly orderVersion: ColumnType;
  /** What lets one statement refuse to be stored with an error of its choosing, where the engine needs it (migration 004). */
  createRefusal(db: Schema): Promise<void>;
  dropRefusal(db: Schema): Promise<void>;
  /** Triggers moving `auth_state`'s version on whenever a row of `tables` changes (migration 004). */
  createAuthTriggers(db: Schema, tables: readonly string[]): Promise<void>;
  dropAuthTriggers(db: Schema, tables: readonly string[]): Promise<void>;
  /**
   * Leaves `percent` of each new page of `table` free, where the engine can then update a row in
   * place without touching its indexes (null: the engine's default again). Migration 008.
   */
  roomForUpdates(db: Schema, table: string, percent: number | null): Promise<void>;
  /** `order_records.record`: JSONB in a BLOB on SQLite, JSON text on PostgreSQL (migration 011). */
  readonly recordColumn: ColumnType;
  /** What `name` is in the schema: a table, a view, or nothing (migration 011 runs again after a crash). */
  relationKind(db: Schema, name: string): Promise<'table' | 'view' | null>;
  /** The views that show the records as the tables of before (order-record views, migration 011). */
  createRecordViews(db: Schema): Promise<void>;
  /** The view `audit_events`: the rows of before and the log's entries, one row each (migration 012). */
  createAuditView(db: Schema): Promise<void>;
  /**
   * The key of `event_log` (migration 013): `position` where it is the rowid (SQLite), which then
   * keeps rows in commit order and `first_id` gets an index of its own; `first_id` where
   * `position` is a generated number that no index needs (PostgreSQL).
   */
  readonly eventLogKey: 'position' | 'first_id';
  /** The view `events`: the rows of before and the log's entries, one row each (migration 013). */
  createEventView(db: Schema): Promise<void>;
  /** What lets an INSERT into `events` give `position` itself, where it is generated (013's rollback). */
  readonly eventPositionGiven: string;
  /** Moves the generator of `table.position` past the positions given by hand, where there is one (013's rollback). */
  continueEventPositions(db: Schema, table: string): Promise<void>;
}

type WithAdapter = Pick<Schema, 'getExecutor'>;

const byAdapter = new WeakMap<object, EngineSql>();

/** Called by an engine for every connection it opens: transactions of that connection share its adapter. */
export function registerEngineSql(db: WithAdapter, pieces: EngineSql): void {
  byAdapter.set(db.getExecutor().adapter, pieces);
}

/** The engine's pieces for an executor of a store (or an open transaction of one). */
export function engineSql(db: WithAdapter): EngineSql {
  const pieces = byAdapter.get(db.getExecutor().adapter);
  if (!pieces) throw new Error('this connection was not opened by a store (open-store.ts)');
  return pieces;
}
