import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

export interface Operator {
  email: string;
  name: string;
  passwordHash: string;
  disabledAt: string | null;
  createdAt: string;
}

interface OperatorRow {
  email: string;
  name: string;
  password_hash: string;
  disabled_at: string | null;
  created_at: string;
}

function operatorFromRow(row: OperatorRow): Operator {
  return {
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
  };
}

export async function insertOperator(
  db: Executor,
  operator: { email: string; name: string; passwordHash: string },
  now: string,
): Promise<void> {
  await runSql(
    db,
    'insert into operators (email, name, password_hash, disabled_at, created_at, updated_at) values (?, ?, ?, null, ?, ?)',
    [operator.email, operator.name, operator.passwordHash, now, now],
  );
}

export async function findOperator(db: Executor, email: string): Promise<Operator | null> {
  const [row] = await runSql<OperatorRow>(
    db,
    'select email, name, password_hash, disabled_at, created_at from operators where email = ?',
    [email],
  );
  return row ? operatorFromRow(row) : null;
}

export async function listOperators(db: Executor): Promise<Operator[]> {
  const rows = await runSql<OperatorRow>(
    db,
    'select email, name, password_hash, disabled_at, created_at from operators order by email',
    [],
  );
  return rows.map(operatorFromRow);
}

export async function disableOperator(db: Executor, email: string, now: string): Promise<void> {
  await runSql(db, 'update operators set disabled_at = ?, updated_at = ? where email = ?', [now, now, email]);
}

export async function replacePassword(db: Executor, email: string, passwordHash: string, now: string): Promise<void> {
  await runSql(db, 'update operators set password_hash = ?, updated_at = ? where email = ?', [
    passwordHash,
    now,
    email,
  ]);
}
