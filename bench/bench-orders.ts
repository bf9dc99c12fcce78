/**
 * The benchmark's store: N one-booking orders, split in three pools so that every request of a run
 * acts on a booking of its own: bookings to cancel, bookings with a schedule change to accept, and
 * bookings with a flight cancellation to cancel involuntarily (with refunds). Written as NDJSON, the
 * form an operator would import.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { retimedFirstLeg, roundTrip } from './bench-itinerary.js';

export const BENCH_AGENCY = 'BENCH1';
export type Pool = 'cancel' | 'accept' | 'involuntaryCancel';
export const POOLS: readonly Pool[] = ['cancel', 'accept', 'involuntaryCancel'];
const PREFIX: Record<Pool, string> = { cancel: 'C', accept: 'A', involuntaryCancel: 'V' };

export function orderId(index: number): string {
  return `B-${String(index).padStart(8, '0')}`;
}

/** Each order has one booking per pool: a run of one operation touches a distinct booking per request. */
export function reference(pool: Pool, index: number): string {
  return PREFIX[pool] + index.toString(36).toUpperCase().padStart(6, '0');
}

function booking(pool: Pool, index: number) {
  const ticket = (passenger: number) => `2${POOLS.indexOf(pool)}${String(index * 2 + passenger).padStart(11, '0')}`;
  return {
    gdsBookingReference: reference(pool, index),
    segments: roundTrip(index),
    passengers: [
      {
        passengerId: 'P1',
        type: 'ADT',
        givenName: 'ADA',
        surname: 'LOVELACE',
        ticket: {
          ticketNumber: ticket(0),
          baseFare: '450.00',
          taxes: '120.51',
          coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
        },
      },
      {
        passengerId: 'P2',
        type: 'CHD',
        givenName: 'ALAN',
        surname: 'TURING',
        ticket: {
          ticketNumber: ticket(1),
          baseFare: '337.50',
          taxes: '120.51',
          coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
        },
      },
    ],
  };
}

function orderDocument(index: number) {
  return {
    orderId: orderId(index),
    agencyId: BENCH_AGENCY,
    currency: 'EUR',
    bookings: POOLS.map((pool) => booking(pool, index)),
  };
}

function changeDocuments(index: number) {
  const common = { orderId: orderId(index), detectedAt: '2026-11-20T08:00:00Z', removedSegments: ['S1'] };
  return [
    {
      ...common,
      changeId: `BA-${index}`,
      gdsBookingReference: reference('accept', index),
      kind: 'SCHEDULE_CHANGE',
      addedSegments: [retimedFirstLeg(index)],
    },
    {
      ...common,
      changeId: `BV-${index}`,
      gdsBookingReference: reference('involuntaryCancel', index),
      kind: 'FLIGHT_CANCELLATION',
      addedSegments: [],
    },
  ];
}

async function writeLines(file: string, count: number, lines: (index: number) => object[]): Promise<void> {
  const out = fs.createWriteStream(file);
  for (let index = 0; index < count; index += 1) {
    for (const value of lines(index)) {
      if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
}

export async function writeBenchDocuments(dir: string, count: number): Promise<{ orders: string; changes: string }> {
  const orders = `${dir}/orders.ndjson`;
  const changes = `${dir}/changes.ndjson`;
  await writeLines(orders, count, (index) => [orderDocument(index)]);
  await writeLines(changes, count, changeDocuments);
  return { orders, changes };
}
