import { createHash } from 'node:crypto';
import type { KeptResponse } from '../repositories/kept-responses-repository.js';
import { bookingsOf } from '../order-record.js';
import { storedOrderOf, type StoredOrder } from '../repositories/orders-repository.js';
import {
  KeptResponsesExhausted,
  KeptResponseTaken,
  NO_KEPT_RESPONSE_CAP,
  orderUpdateWrites,
  type UpdateOrder,
  type OrderUpdateScope,
  type OrderSnapshot,
  type OrderUpdate,
} from '../order-update.js';
import { numbered, postgresSql } from './engine-sql.js';
import type { ConnectionPool, LentConnection } from './connection-pool.js';

/**
 * Optimistic writes: an update of an order costs two round trips and no BEGIN or COMMIT.
 * 1. One statement reads the order's row (its record and version, order-record.ts) and the
 *    response kept under the request's Idempotency-Key.
 * 2. The rules decide in TypeScript; one statement then writes everything (the record, audit trail,
 *    events, the kept response) in data-modifying WITH clauses, the record only if the order's
 *    version is still the one read. If it is not, the statement fails as a whole (its last line
 *    raises serialization_failure), nothing of it is stored, and the update is read and decided
 *    again. The record's update changes no indexed column: PostgreSQL makes it in place (heap-only).
 * So a ticket is never refunded twice, and every request has one outcome.
 */

/** Lost races in a row before the request is answered 503 (the order is too busy to change now). */
const MAX_ATTEMPTS = 8;

/** serialization_failure: raised by the write itself when the order's version moved on. */
const CHANGED_MEANWHILE = '40001';
/** Our own code: another request kept its response under the same Idempotency-Key meanwhile. */
const KEY_TAKEN = 'AOK01';
/** query_canceled: the request's time ran out; answered 503 like any statement time-out. */
const OUT_OF_TIME = '57014';
/** The order changed meanwhile: our own check, or a refund or lock of the winner met on the way. */
const LOST_RACE = new Set([CHANGED_MEANWHILE, '23505', '40P01']);

/** For the service's own changes (deadlines): bounded by the statement time-out alone. */
const NO_TIME_LIMIT_MS = 24 * 3_600_000;

/** The request's time ran out before its update could be sent: nothing was stored (answered 503). */
export class OutOfTime extends Error {
  readonly code = OUT_OF_TIME;
}

/** The order was changed by others every time it was about to be written: answered 503, retry later. */
export class OrderContention extends Error {
  constructor(orderId: string) {
    super(`order ${orderId} changed under ${MAX_ATTEMPTS} attempts in a row`);
  }
}

/**
 * The read, written for the scope at hand: a condition the scope does not need (the agency, the
 * references, the Idempotency-Key) is left out of the text, not written `$n is null or …`. With such
 * conditions PostgreSQL judged its plan for any values dearer than one made for the values, and so
 * planned the read again at every call (about 160 µs, more than the read itself took); each shape
 * below is planned once per connection (docs/benchmarks.md).
 */
function readQuery(scope: OrderUpdateScope): { name: string; text: string; values: unknown[] } {
  const values: unknown[] = [scope.orderId];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  const agency = scope.agencyId === null ? '' : ` and o.agency_id = ${parameter(scope.agencyId)}`;
  const key = scope.keptResponseKey;
  let kept = 'null::json as kept, null::integer as kept_count';
  if (key !== null) {
    const keyAgency = parameter(key.agencyId);
    // With the key's response, how many its agency keeps: a new key is refused at the cap unwritten.
    kept =
      `(select row_to_json(k) from idempotency_keys k where k.agency_id = ${keyAgency} ` +
      `and k.operation = ${parameter(key.operation)} and k.idempotency_key = ${parameter(key.key)}) as kept, ` +
      `(select c.kept from kept_response_counts c where c.agency_id = ${keyAgency}) as kept_count`;
  }
  const text = `select o.order_id, o.agency_id, o.version, o.record, ${kept}
  from (select 1) as one left join order_records o on o.order_id = $1${agency}`;
  const shape = `${scope.agencyId === null ? '' : 'a'}${key === null ? '' : 'k'}`;
  return { name: `airorder_order_read_${shape || 'all'}`, text, values };
}

interface ReadRow {
  order_id: string | null;
  agency_id: string | null;
  version: string | null;
  record: string | null;
  kept: {
    request_hash: string;
    response_status: number;
    response_body: string;
    request_id: string;
    expires_at: string;
  } | null;
  kept_count: number | null;
}

interface Read {
  snapshot: OrderSnapshot;
  stored: StoredOrder | null;
  version: string | null;
  /** How many kept responses the key's agency has (0 without a key). */
  keptCount: number;
}

async function read(connection: LentConnection, scope: OrderUpdateScope): Promise<Read> {
  const { rows } = await connection.query<ReadRow>(readQuery(scope));
  const row = rows[0]!;
  const stored =
    row.order_id === null
      ? null
      : storedOrderOf({
          order_id: row.order_id,
          agency_id: row.agency_id!,
          version: row.version!,
          record: row.record!,
        });
  const kept: KeptResponse | null =
    row.kept === null
      ? null
      : {
          requestHash: row.kept.request_hash,
          status: Number(row.kept.response_status),
          body: row.kept.response_body,
          requestId: row.kept.request_id,
          expiresAt: row.kept.expires_at,
        };
  const bookings = stored ? bookingsOf(stored.record, scope.references) : [];
  return {
    snapshot: { order: stored?.row ?? null, bookings, kept },
    stored,
    version: row.version,
    keptCount: Number(row.kept_count ?? 0),
  };
}

/** Texts prepared on the server by name, per connection; past this many shapes, new ones are sent unnamed. */
const NAMED_LIMIT = 200;
const named = new Set<string>();

function statementName(text: string): string | undefined {
  const name = `airorder_w_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  if (named.has(name)) return name;
  if (named.size >= NAMED_LIMIT) return undefined;
  named.add(name);
  return name;
}

/**
 * One statement storing the update. Its last line runs once every WITH clause has run to its end
 * (each is counted, in turn, below an OFFSET 0 that keeps them first; the kept response last, as a
 * transaction would keep it after its writes), locks waited for included, and fails
 * the statement, so that nothing of it is stored, when the order's version is no longer `version`
 * or when the request's time ran out meanwhile: a request answered 503 stores nothing.
 */
function writeStatement(
  scope: OrderUpdateScope,
  stored: StoredOrder,
  version: string,
  update: OrderUpdate,
  timeLeftMs: number,
  replacing: boolean,
): { text: string; values: unknown[] } {
  // A response kept alone (every item failed or changed nothing) leaves the order as it is: it
  // is only checked to be the one the response describes.
  const { record, rest } = orderUpdateWrites(postgresSql.recordIn, stored, update, version);
  const clauses = [
    record
      ? `moved as (${record.text} returning 1)`
      : 'moved as (select 1 from order_records where order_id = ? and version = ?)',
  ];
  const values: unknown[] = record ? [...record.parameters] : [stored.row.orderId, version];
  const counts = ['(select count(*) from moved)'];
  rest.forEach((part, index) => {
    clauses.push(`w${index} as (${part.text} returning 1)`);
    counts.push(`(select count(*) from w${index})`);
    values.push(...part.parameters);
  });
  let kept = '1';
  const key = scope.keptResponseKey;
  if (update.keep && key) {
    const keep = update.keep;
    // The response is kept once every write is done (its WHERE reads them), as a transaction keeps
    // it last: a request that another one finishes first is the one refused.
    const after = `${counts.join(' + ')} >= 0`;
    if (replacing) {
      // The expired response read under the key is replaced, and the agency's count stays. Gone
      // meanwhile (purged, or replaced by another request): the order is read and decided again.
      clauses.push(
        `kept as (update idempotency_keys set request_hash = ?, response_status = ?::integer, response_body = ?,
        request_id = ?, created_at = ?, expires_at = ?
        where agency_id = ? and operation = ? and idempotency_key = ? and expires_at <= ? and ${after} returning 1)`,
      );
      values.push(keep.requestHash, keep.status, keep.body, keep.requestId, update.now, keep.expiresAt);
      values.push(key.agencyId, key.operation, key.key, update.now);
    } else {
      // A new key: a live response stored under it meanwhile (another request's, for another order:
      // one for this order moved its version on) is not replaced, and nothing is stored. Its room in
      // the agency's count was reserved before (reserveRoom).
      clauses.push(
        'kept as (insert into idempotency_keys (agency_id, operation, idempotency_key, request_hash, ' +
          'response_status, response_body, request_id, created_at, expires_at)' +
          `
        select ?, ?, ?, ?, ?::integer, ?, ?, ?, ? where ${after}
        on conflict (agency_id, operation, idempotency_key) do nothing returning 1)`,
      );
      values.push(key.agencyId, key.operation, key.key, keep.requestHash, keep.status, keep.body, keep.requestId);
      values.push(update.now, keep.expiresAt);
    }
    kept = '(select count(*) from kept)';
  }
  values.push(timeLeftMs);
  const keptGone = replacing
    ? `airorder_refuse('the kept response changed since it was read', '${CHANGED_MEANWHILE}')`
    : `airorder_refuse('a response was kept under the Idempotency-Key meanwhile', '${KEY_TAKEN}')`;
  const text = `with ${clauses.join(', ')}
    select case
      when s.moved = 0 then airorder_refuse('the order changed since it was read', '${CHANGED_MEANWHILE}')
      when s.kept = 0 then ${keptGone}
      when clock_timestamp() > statement_timestamp() + ?::double precision * interval '1 millisecond'
        then airorder_refuse('the request ran out of time', '${OUT_OF_TIME}')
      else 1 end as stored
    from (select ${counts[0]} as moved, ${counts.slice(1).join(' + ') || '0'} as written, ${kept} as kept offset 0) as s`;
  return { text: numbered(text), values };
}

function lostRace(error: unknown): boolean {
  return LOST_RACE.has(String((error as { code?: unknown } | null)?.code));
}

/**
 * At an agency's cap of kept responses: removes its expired ones (taking them off its count), and
 * says whether there is room now. If not, `until` is when its oldest live one expires. One statement;
 * concurrent requests may each make room or find it made: the write's own check decides.
 */
async function makeRoom(
  connection: LentConnection,
  agencyId: string,
  cap: number,
  now: string,
): Promise<{ room: true } | { room: false; until: string }> {
  let rows: { kept: string | number; oldest: string | null }[];
  try {
    ({ rows } = await connection.query<{ kept: string | number; oldest: string | null }>({
      name: 'airorder_kept_room',
      text: `with gone as (delete from idempotency_keys where agency_id = $1 and expires_at <= $2 returning 1),
      counted as (update kept_response_counts set kept = kept - (select count(*) from gone)
        where agency_id = $1 and exists (select 1 from gone) returning kept)
      select coalesce((select kept from counted), (select kept from kept_response_counts where agency_id = $1), 0) as kept,
        (select min(expires_at) from idempotency_keys where agency_id = $1 and expires_at > $2) as oldest`,
      values: [agencyId, now],
    }));
  } catch (error) {
    // Lost to a purge removing the same rows: the write's own check decides.
    if (lostRace(error)) return { room: true };
    throw error;
  }
  const { kept, oldest } = rows[0]!;
  // No live response left while the count says full: the count is wrong, and the write's check still holds.
  return Number(kept) < cap || oldest === null ? { room: true } : { room: false, until: oldest };
}

/**
 * Takes one place in the agency's count of kept responses, if it is below the cap. The count's row is
 * locked while the place is taken, so requests at once of one agency take places one at a time and
 * never more than the cap; the statement commits without waiting for the write-ahead log to reach
 * the disk (synchronous_commit off for it alone), so that the lock is held for microseconds and not
 * through a flush: with the place taken in the write itself, every keyed write of an agency waited
 * for the one before it to reach the disk (docs/decisions.md, "Kept responses per agency"). A place
 * lost with the database's last moments, or kept by a process that died before its write, is
 * corrected by the purge's recount.
 */
async function reserveRoom(connection: LentConnection, agencyId: string, cap: number): Promise<boolean> {
  const { rows } = await connection.query<{ reserved: string | number }>({
    name: 'airorder_kept_reserve',
    text: `with async as (select set_config('synchronous_commit', 'off', true) as setting),
    counted as (insert into kept_response_counts (agency_id, kept) select $1, 1 from async
      on conflict (agency_id) do update set kept = kept_response_counts.kept + 1
      where kept_response_counts.kept < $2::integer returning 1)
    select count(*) as reserved from counted`,
    values: [agencyId, cap],
  });
  return Number(rows[0]!.reserved) > 0;
}

/** Gives back a place reserveRoom took, when its response was not kept after all. */
async function releaseRoom(connection: LentConnection, agencyId: string): Promise<void> {
  await connection.query({
    name: 'airorder_kept_release',
    text: `with async as (select set_config('synchronous_commit', 'off', true) as setting)
    update kept_response_counts set kept = kept - 1 from async where agency_id = $1 and kept > 0`,
    values: [agencyId],
  });
}

/**
 * One connection serves the whole update, its reads and writes and their repeats: a request waits
 * for a connection once, as long as its time allows (connection-pool.ts), not again between its read
 * and its write behind the requests that arrived meanwhile.
 */
export function postgresUpdateOrder(pool: ConnectionPool): UpdateOrder {
  return async (scope, decide) => {
    const cap = scope.keptResponsesPerAgency ?? NO_KEPT_RESPONSE_CAP;
    const connection = await pool.connect(scope.timeLeft?.());
    // The agency whose count holds a place for this request's response, until the response is kept.
    let reservedFor: string | null = null;
    try {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const { snapshot, stored, version, keptCount } = await read(connection, scope);
        const { value, update } = decide(snapshot);
        if (!update || !stored || version === null) return value;
        const key = scope.keptResponseKey;
        const replacing = snapshot.kept !== null;
        const newKey = Boolean(update.keep && key && !replacing);
        if (reservedFor !== null && !newKey) {
          // Decided again, the response now replaces an expired one or is not kept: its place goes back.
          await releaseRoom(connection, reservedFor);
          reservedFor = null;
        }
        if (newKey && reservedFor === null) {
          // A new key at the agency's cap is refused before anything is written, unless expired ones made room.
          let room = keptCount < cap && (await reserveRoom(connection, key!.agencyId, cap));
          if (!room) {
            const made = await makeRoom(connection, key!.agencyId, cap, update.now);
            if (!made.room) throw new KeptResponsesExhausted(key!.agencyId, made.until);
            room = await reserveRoom(connection, key!.agencyId, cap);
            if (!room) continue;
          }
          reservedFor = key!.agencyId;
        }
        const timeLeftMs = scope.timeLeft?.() ?? NO_TIME_LIMIT_MS;
        if (timeLeftMs <= 0) throw new OutOfTime();
        const { text, values } = writeStatement(scope, stored, version, update, timeLeftMs, replacing);
        try {
          await connection.query({ name: statementName(text), text, values });
          reservedFor = null;
          return value;
        } catch (error) {
          if (String((error as { code?: unknown }).code) === KEY_TAKEN) throw new KeptResponseTaken(key!.key);
          if (!lostRace(error)) throw error;
        }
      }
      throw new OrderContention(scope.orderId);
    } finally {
      try {
        if (reservedFor !== null) await releaseRoom(connection, reservedFor);
      } finally {
        connection.release();
      }
    }
  };
}
