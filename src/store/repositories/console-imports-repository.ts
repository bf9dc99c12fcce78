import type { Executor } from '../executor.js';

/** An upload on the console's Imports page and how far its import has come (docs/console.md). */
export interface ConsoleImport {
  importId: string;
  kind: 'orders' | 'changes';
  fileName: string;
  operatorEmail: string;
  /** The process running the import: `host:pid`, and `/start` where the system tells when it started (process-identity.ts). */
  runner: string;
  status: 'running' | 'done' | 'failed';
  phase: 'reading' | 'storing';
  recordsRead: number;
  recordsStored: number;
  recordsTotal: number | null;
  summary: string | null;
  error: string | null;
  startedAt: string;
  updatedAt: string;
}

export type ImportProgressUpdate = Partial<
  Pick<ConsoleImport, 'status' | 'phase' | 'recordsRead' | 'recordsStored' | 'recordsTotal' | 'summary' | 'error'>
>;

export async function insertConsoleImport(
  db: Executor,
  entry: Pick<ConsoleImport, 'importId' | 'kind' | 'fileName' | 'operatorEmail' | 'runner'>,
  now: string,
): Promise<void> {
  await db
    .insertInto('console_imports')
    .values({
      import_id: entry.importId,
      kind: entry.kind,
      file_name: entry.fileName,
      operator_email: entry.operatorEmail,
      runner: entry.runner,
      status: 'running',
      phase: 'reading',
      records_read: 0,
      records_stored: 0,
      records_total: null,
      summary: null,
      error: null,
      started_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * Writes a running import's progress, or how it ended. An import that has ended (done, failed, or
 * ended as interrupted by another process) is never written again: false then.
 */
export async function updateConsoleImport(
  db: Executor,
  importId: string,
  update: ImportProgressUpdate,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('console_imports')
    // A field the update does not name is undefined, which Kysely leaves out of the statement.
    .set({
      status: update.status,
      phase: update.phase,
      records_read: update.recordsRead,
      records_stored: update.recordsStored,
      records_total: update.recordsTotal,
      summary: update.summary,
      error: update.error,
      updated_at: now,
    })
    .where('import_id', '=', importId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Ends a running import as failed (its process is gone); one that has meanwhile ended is left as it
 * is, and so is one written since `seenAt` (its process was heard from after all): true when ended.
 */
export async function failRunningConsoleImport(
  db: Executor,
  importId: string,
  error: string,
  now: string,
  seenAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('console_imports')
    .set({ status: 'failed', error, updated_at: now })
    .where('import_id', '=', importId)
    .where('status', '=', 'running')
    .where('updated_at', '=', seenAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

type Row = {
  import_id: string;
  kind: string;
  file_name: string;
  operator_email: string;
  runner: string;
  status: string;
  phase: string;
  records_read: number | string;
  records_stored: number | string;
  records_total: number | string | null;
  summary: string | null;
  error: string | null;
  started_at: string;
  updated_at: string;
};

function fromRow(row: Row): ConsoleImport {
  return {
    importId: row.import_id,
    kind: row.kind as ConsoleImport['kind'],
    fileName: row.file_name,
    operatorEmail: row.operator_email,
    runner: row.runner,
    status: row.status as ConsoleImport['status'],
    phase: row.phase as ConsoleImport['phase'],
    recordsRead: Number(row.records_read),
    recordsStored: Number(row.records_stored),
    recordsTotal: row.records_total === null ? null : Number(row.records_total),
    summary: row.summary,
    error: row.error,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
  };
}

export async function findConsoleImport(db: Executor, importId: string): Promise<ConsoleImport | null> {
  const row = await db.selectFrom('console_imports').selectAll().where('import_id', '=', importId).executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** Every import still marked running, oldest first: what a process checks for abandoned ones when it starts. */
export async function runningConsoleImports(db: Executor): Promise<ConsoleImport[]> {
  const rows = await db
    .selectFrom('console_imports')
    .selectAll()
    .where('status', '=', 'running')
    .orderBy('started_at')
    .execute();
  return rows.map(fromRow);
}

/** Newest first. */
export async function recentConsoleImports(db: Executor, limit: number): Promise<ConsoleImport[]> {
  const rows = await db
    .selectFrom('console_imports')
    .selectAll()
    .orderBy('started_at', 'desc')
    .orderBy('import_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}
