import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

/** A connection, or an open transaction: repositories accept either and never decide where one begins. */
export type Executor = Kysely<Database>;
