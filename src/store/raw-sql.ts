import { CompiledQuery } from 'kysely';
import { engineSql } from './engine-sql.js';
import type { Executor } from './executor.js';
import type { Statement } from './statement.js';

type DirectSql = (text: string, parameters: readonly unknown[]) => unknown[];
const direct = new WeakMap<Executor, DirectSql>();

/** Lets `runSql` on `executor` bypass Kysely; the store vouches that nothing else uses the connection meanwhile. */
export function registerDirectSql(executor: Executor, run: DirectSql): void {
  direct.set(executor, run);
}

/**
 * Runs SQL text as it is, skipping the query builder: for the few statements every request runs,
 * where building and compiling a query costs more than executing it. The text must be portable
 * (standard SQL understood by both stores, with the engine's pieces of engine-sql.ts where they
 * differ) and use `?` placeholders.
 */
export async function runSql<Row>(db: Executor, text: string, parameters: readonly unknown[]): Promise<Row[]> {
  const run = direct.get(db);
  if (run) return run(text, parameters) as Row[];
  const result = await db.executeQuery<Row>(CompiledQuery.raw(engineSql(db).text(text), [...parameters]));
  return result.rows;
}

/** `?, ?, ?` for a list of n values. */
export function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

// SQLite accepts at most 32,766 bound values in one statement (PostgreSQL 65,535).
const MAX_PARAMETERS = 30_000;

/** The values of `rows[start, end)` in one list, row after row. */
function rowValues(rows: readonly (readonly unknown[])[], start: number, end: number, width: number): unknown[] {
  // A plain loop: Array.prototype.flat took twenty times as long on the thousands of rows of an import batch.
  // Stryker disable next-line ArrayDeclaration: sized up front only to spare the array's growth; an empty one ends the same.
  const values = new Array<unknown>((end - start) * width);
  let next = 0;
  for (let index = start; index < end; index += 1) {
    for (const value of rows[index]!) values[next++] = value;
  }
  return values;
}

/** Inserts rows with as few statements as the parameter limit allows. */
export async function insertRows(
  db: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const tuple = `(${placeholders(columns.length)})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const end = Math.min(rows.length, start + perStatement);
    await runSql(
      db,
      `insert into ${table} (${columns.join(', ')}) values ${new Array<string>(end - start).fill(tuple).join(', ')}`,
      rowValues(rows, start, end, columns.length),
    );
  }
}

/**
 * Runs data-changing statements as one step. They must touch distinct rows and need nothing back.
 * The engine sends them in as few round trips as it can (engine-sql.ts, `together`).
 */
export async function runStatements(db: Executor, statements: readonly Statement[]): Promise<void> {
  const batch = statements.length > 1 ? engineSql(db).together(statements) : statements;
  for (const statement of batch) await runSql(db, statement.text, statement.parameters);
}
