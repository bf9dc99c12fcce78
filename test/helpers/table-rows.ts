/**
 * Every row of every table of a store (SQLite or PostgreSQL), found by introspection so that a
 * table added later is covered too, and the differences between two such snapshots.
 */
import type { Kysely } from 'kysely';

export interface TableRow {
  table: string;
  row: Record<string, unknown>;
}

/** Table name → its rows, each written as canonical JSON (keys sorted, bigints as strings), sorted. */
export type TableRows = Map<string, string[]>;

function canonical(row: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(row).sort()) {
    const value = row[key];
    sorted[key] = typeof value === 'bigint' || typeof value === 'number' ? String(value) : value;
  }
  return JSON.stringify(sorted);
}

export async function snapshotAllTables(db: Kysely<any>): Promise<TableRows> {
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  const snapshot: TableRows = new Map();
  for (const table of tables) {
    const rows = await db.selectFrom(table).selectAll().execute();
    snapshot.set(table, rows.map((row) => canonical(row as Record<string, unknown>)).sort());
  }
  return snapshot;
}

/** Rows present in `after` and not in `before` (added) and the reverse (removed), as multisets. */
export function diffTables(before: TableRows, after: TableRows): { added: TableRow[]; removed: TableRow[] } {
  const added: TableRow[] = [];
  const removed: TableRow[] = [];
  const tables = new Set([...before.keys(), ...after.keys()]);
  for (const table of tables) {
    const counts = new Map<string, number>();
    for (const row of before.get(table) ?? []) counts.set(row, (counts.get(row) ?? 0) + 1);
    for (const row of after.get(table) ?? []) {
      const left = counts.get(row) ?? 0;
      if (left > 0) counts.set(row, left - 1);
      else added.push({ table, row: JSON.parse(row) });
    }
    for (const [row, left] of counts) {
      for (let i = 0; i < left; i += 1) removed.push({ table, row: JSON.parse(row) });
    }
  }
  return { added, removed };
}
