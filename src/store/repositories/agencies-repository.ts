import type { Executor } from '../executor.js';

export interface Agency {
  agencyId: string;
  name: string;
  iataNumber: string | null;
  email: string | null;
}

export async function insertAgency(db: Executor, agency: Agency, now: string): Promise<void> {
  await db
    .insertInto('agencies')
    .values({
      agency_id: agency.agencyId,
      name: agency.name,
      iata_number: agency.iataNumber,
      email: agency.email,
      created_at: now,
    })
    .execute();
}

export async function findAgency(db: Executor, agencyId: string): Promise<Agency | null> {
  const row = await db.selectFrom('agencies').selectAll().where('agency_id', '=', agencyId).executeTakeFirst();
  return row ? { agencyId: row.agency_id, name: row.name, iataNumber: row.iata_number, email: row.email } : null;
}
