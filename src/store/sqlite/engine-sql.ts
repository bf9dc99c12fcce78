import { sql } from 'kysely';
import type { EngineSql } from '../engine-sql.js';
import { createSqliteAuditView, createSqliteEventView, createSqliteRecordViews } from './record-views.js';

const AUTH_TRIGGER_EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * SQLite: one writer at a time, in process. Write transactions run one after the other, so rows
 * need no locks and events are positioned in commit order; statements run in turn at no round-trip cost.
 */
export const sqliteSql: EngineSql = {
  text: (portable) => portable,
  together: (statements) => statements,
  lockRows: '',
  claimRows: '',
  settledEvents: '',
  // JSONB: smaller than the text, so that an order of three bookings keeps to one 4 KiB page (docs/benchmarks.md).
  recordIn: 'jsonb(?)',
  recordOut: 'json(record)',
  schema: {
    // The rowid: always above every row there is, so given in commit order.
    eventPosition: 'integer',
    eventTransaction: 0,
    orderVersion: 'integer',
    // SQLite fills its pages as it likes; an update rewrites the row in its page when it fits.
    async roomForUpdates() {},
    recordColumn: 'blob',
    async relationKind(db, name) {
      const { rows } = await sql<{
        type: string;
      }>`select type from sqlite_master where name = ${name} and type in ('table', 'view')`.execute(db);
      return (rows[0]?.type as 'table' | 'view' | undefined) ?? null;
    },
    createRecordViews: createSqliteRecordViews,
    createAuditView: createSqliteAuditView,
    // The rowid, in commit order as `events.position` was; the ids get an index of their own.
    eventLogKey: 'position',
    createEventView: createSqliteEventView,
    // An integer primary key takes a position given, and goes on from the highest there is.
    eventPositionGiven: '',
    async continueEventPositions() {},
    async createRefusal() {},
    async dropRefusal() {},
    async createAuthTriggers(db, tables) {
      for (const table of tables) {
        for (const event of AUTH_TRIGGER_EVENTS) {
          await sql
            .raw(
              `create trigger ${table}_auth_changed_${event} after ${event} on ${table}
          begin update auth_state set version = version + 1 where id = 1; end`,
            )
            .execute(db);
        }
      }
    },
    async dropAuthTriggers(db, tables) {
      for (const table of tables) {
        for (const event of AUTH_TRIGGER_EVENTS)
          await sql.raw(`drop trigger ${table}_auth_changed_${event}`).execute(db);
      }
    },
  },
};
