/**
 * The order as one record, for bench/order-record.ts: an order of three bookings as the domain
 * objects (src/domain/order.ts) would serialise it, the change a cancel makes to it, what the cancel
 * appends to the logs, and the encodings measured.
 */
import v8 from 'node:v8';
import zlib from 'node:zlib';
import type { AirlineChange, Booking, Order, Passenger } from '../src/domain/order.js';
import { retimedFirstLeg, roundTrip } from './bench-itinerary.js';

export const RECORD_AGENCY = 'BENCH1';

/** What one row holds besides its key and version: the order whole, and its times. */
export interface OrderRecord extends Order {
  createdAt: string;
  updatedAt: string;
}

export function recordOrderId(index: number): string {
  return `BO-${String(index).padStart(8, '0')}`;
}

function passengers(index: number, slot: number): Passenger[] {
  const names = [
    ['P1', 'ADT', 'ADA', 'LOVELACE', 45_000],
    ['P2', 'CHD', 'ALAN', 'TURING', 33_750],
  ] as const;
  return names.map(([passengerId, type, givenName, surname, baseFare], number) => ({
    passengerId,
    type,
    givenName,
    surname,
    ticket: {
      ticketNumber: `2${slot}${String(index * 2 + number).padStart(11, '0')}`,
      baseFare,
      taxes: 12_051,
      coupons: [
        { segmentId: 'S1', status: 'OPEN', value: Math.round(baseFare / 2) },
        { segmentId: 'S2', status: 'OPEN', value: baseFare - Math.round(baseFare / 2) },
      ],
    },
  }));
}

function change(index: number, slot: number, kind: AirlineChange['kind']): AirlineChange {
  return {
    changeId: `BC-${index}-${slot}`,
    kind,
    detectedAt: '2026-11-20T08:00:00Z',
    removedSegments: ['S1'],
    addedSegments: kind === 'FLIGHT_CANCELLATION' ? [] : [retimedFirstLeg(index)],
    status: 'PENDING',
    actionDeadline: '2026-11-27T08:00:00Z',
    consequenceOfInaction: 'ACCEPT',
  };
}

function booking(index: number, slot: number, kind: AirlineChange['kind']): Booking {
  return {
    reference: `R${slot}${index.toString(36).toUpperCase().padStart(5, '0')}`,
    status: 'CONFIRMED',
    cancellation: null,
    segments: roundTrip(index),
    passengers: passengers(index, slot),
    changes: [change(index, slot, kind)],
    refunds: [],
  };
}

/**
 * Order `index` as stored before the measured cancel: three bookings of two ticketed passengers over
 * two segments, an airline change on each; the third already cancelled because of its flight
 * cancellation, with a refund per ticket.
 */
export function storedRecord(index: number): OrderRecord {
  const record: OrderRecord = {
    orderId: recordOrderId(index),
    agencyId: RECORD_AGENCY,
    currency: 'EUR',
    createdAt: '2026-11-01T09:00:00Z',
    updatedAt: '2026-11-20T08:00:00Z',
    bookings: [
      booking(index, 0, 'SCHEDULE_CHANGE'),
      booking(index, 1, 'SCHEDULE_CHANGE'),
      booking(index, 2, 'FLIGHT_CANCELLATION'),
    ],
  };
  cancelBooking(record, 2, 'INVOLUNTARY', '2026-11-20T09:00:00Z');
  return record;
}

/** What a cancel decides: the booking and its tickets' coupons cancelled, its pending change closed, a refund per ticket. */
export function cancelBooking(
  record: OrderRecord,
  slot: number,
  cancellation: 'VOLUNTARY' | 'INVOLUNTARY',
  now: string,
): void {
  const target = record.bookings[slot]!;
  target.status = 'CANCELED';
  target.cancellation = cancellation;
  for (const pending of target.changes)
    if (pending.status === 'PENDING') pending.status = cancellation === 'INVOLUNTARY' ? 'CANCELED' : 'CLOSED';
  for (const passenger of target.passengers) {
    if (!passenger.ticket) continue;
    for (const coupon of passenger.ticket.coupons) coupon.status = 'REFUNDED';
    target.refunds.push({
      ticketNumber: passenger.ticket.ticketNumber,
      amount: passenger.ticket.baseFare + passenger.ticket.taxes,
      quoteType: 'FULL',
      createdAt: now,
    });
  }
  record.updatedAt = now;
}

/** What a cancel appends: two events (the agency's feed) and two audit rows, as today's cancel does. */
export function cancelLogs(record: OrderRecord, requestId: string, now: string) {
  const target = record.bookings[0]!;
  const refunds = target.refunds.map((refund) => ({
    TicketNumber: refund.ticketNumber,
    Amount: refund.amount,
    QuoteType: refund.quoteType,
  }));
  return {
    events: [
      {
        type: 'booking.cancelled',
        data: JSON.stringify({
          OrderID: record.orderId,
          GdsBookingReference: target.reference,
          Status: 'CANCELED',
          Cancellation: 'VOLUNTARY',
          OccurredAt: now,
        }),
      },
      {
        type: 'refund.quoted',
        data: JSON.stringify({
          OrderID: record.orderId,
          GdsBookingReference: target.reference,
          Currency: record.currency,
          Refunds: refunds,
        }),
      },
    ],
    audit: [
      {
        event: 'booking.cancelled',
        detail: JSON.stringify({ reference: target.reference, from: 'CONFIRMED', to: 'CANCELED' }),
        requestId,
      },
      {
        event: 'refunds.created',
        detail: JSON.stringify({
          reference: target.reference,
          refunds: refunds.length,
          amount: refunds.reduce((sum, refund) => sum + refund.Amount, 0),
        }),
        requestId,
      },
    ],
  };
}

/**
 * One way of storing the record. `sqlIn` / `sqlOut` wrap the parameter and the column in SQL where
 * the database itself converts (SQLite's JSONB: JSON text in, JSON text out, binary on disk).
 */
export interface Encoding {
  name: string;
  encode(record: OrderRecord): string | Buffer;
  decode(stored: string | Buffer): OrderRecord;
  sqlIn: string;
  sqlOut: string;
}

const json: Encoding = {
  name: 'json',
  sqlIn: '?',
  sqlOut: 'record',
  encode: (record) => JSON.stringify(record),
  decode: (stored) => JSON.parse(stored as string) as OrderRecord,
};

export const ENCODINGS: Record<string, Encoding> = {
  json,
  /** SQLite's binary JSON (3.45 and later), converted by SQLite on the way in and out. */
  jsonb: { ...json, name: 'jsonb', sqlIn: 'jsonb(?)', sqlOut: 'json(record) as record' },
  /** V8's structured clone format, as node:v8 writes it. */
  v8: {
    name: 'v8',
    sqlIn: '?',
    sqlOut: 'record',
    encode: (record) => v8.serialize(record),
    decode: (stored) => v8.deserialize(stored as Buffer) as OrderRecord,
  },
  /** JSON text compressed with raw deflate (level 1): half the bytes, for CPU. */
  deflate: {
    name: 'deflate',
    sqlIn: '?',
    sqlOut: 'record',
    encode: (record) => zlib.deflateRawSync(JSON.stringify(record), { level: 1 }),
    decode: (stored) => JSON.parse(zlib.inflateRawSync(stored as Buffer).toString()) as OrderRecord,
  },
};

/** A walk over 0…count-1 that visits each order once, neighbours far apart: the order requests come in. */
export function scattered(count: number): (position: number) => number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let stride = 104_729;
  while (gcd(stride, count) !== 1) stride += 2;
  return (position) => (position * stride + 12_345) % count;
}
