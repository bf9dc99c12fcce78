/**
 * airorder's store for the comparison with the reference limit: the reference's orders (its
 * common.mjs) as airorder's import documents. ORDERS orders `BO-<n>` of agency BENCH in EUR, three
 * bookings each with the reference's references, segments and ticketed passengers, and one pending
 * schedule change per booking, so that the reference's load sequence names the same bookings on
 * both sides and accept and involuntary cancel have a change to act on.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import type { ReferenceData } from './limit-reference.js';

interface ReferenceSegment {
  segmentId: string;
  carrier: string;
  flightNumber: string;
  origin: string;
  destination: string;
  departure: string;
  arrival: string;
}
interface ReferencePassenger {
  passengerId: string;
  type: string;
  givenName: string;
  surname: string;
  ticket: {
    ticketNumber: string;
    baseFare: string;
    taxes: { amount: string }[];
    coupons: { segmentId: string; status: string }[];
  };
}

/** A decimal amount with two places ("35.12") in minor units: money is added as integers. */
function minor(amount: string): number {
  const [whole, fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

function decimal(minorUnits: number): string {
  return `${Math.floor(minorUnits / 100)}.${String(minorUnits % 100).padStart(2, '0')}`;
}

const addHours = (instant: string, hours: number) =>
  new Date(Date.parse(instant) + hours * 3_600_000).toISOString().replace('.000Z', 'Z');

function segment(raw: ReferenceSegment) {
  return {
    segmentId: raw.segmentId,
    carrier: raw.carrier,
    flightNumber: raw.flightNumber,
    origin: raw.origin,
    destination: raw.destination,
    departure: raw.departure,
    arrival: raw.arrival,
  };
}

export function limitDocuments(data: ReferenceData, orders: number) {
  const order = (n: number) => {
    const segments = (JSON.parse(data.segmentsJson(n)) as ReferenceSegment[]).map(segment);
    const passengers = JSON.parse(data.passengersJson(n)) as ReferencePassenger[];
    return {
      orderId: data.orderId(n),
      agencyId: data.AGENCY.id,
      currency: 'EUR',
      bookings: Array.from({ length: data.PER_ORDER }, (_, slot) => ({
        gdsBookingReference: data.ref(n, slot),
        segments,
        passengers: passengers.map((passenger) => ({
          passengerId: passenger.passengerId,
          type: passenger.type,
          givenName: passenger.givenName,
          surname: passenger.surname,
          ticket: {
            // The reference gives an order's three bookings the same tickets; an airorder order document
            // refuses a ticket number twice, so each further booking's tickets are shifted past every order's.
            ticketNumber: String(Number(passenger.ticket.ticketNumber) + slot * 2 * orders),
            baseFare: passenger.ticket.baseFare,
            taxes: decimal(passenger.ticket.taxes.reduce((sum, tax) => sum + minor(tax.amount), 0)),
            coupons: passenger.ticket.coupons.map((coupon) => ({ segmentId: coupon.segmentId, status: coupon.status })),
          },
        })),
      })),
    };
  };
  const changes = (n: number) => {
    const first = (JSON.parse(data.segmentsJson(n)) as ReferenceSegment[])[0]!;
    return Array.from({ length: data.PER_ORDER }, (_, slot) => ({
      changeId: `BC-${n}-${slot}`,
      orderId: data.orderId(n),
      gdsBookingReference: data.ref(n, slot),
      kind: 'SCHEDULE_CHANGE',
      detectedAt: '2026-11-20T08:00:00Z',
      // The first flight leaves four hours later: something to accept, or to cancel the booking over.
      removedSegments: [first.segmentId],
      addedSegments: [
        {
          ...segment(first),
          segmentId: `${first.segmentId}B`,
          departure: addHours(first.departure, 4),
          arrival: addHours(first.arrival, 4),
        },
      ],
    }));
  };
  return { order, changes };
}

async function writeLines(file: string, count: number, lines: (n: number) => object[]): Promise<void> {
  const out = fs.createWriteStream(file);
  for (let n = 0; n < count; n += 1) {
    for (const value of lines(n)) {
      if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
}

export async function writeLimitDocuments(
  data: ReferenceData,
  dir: string,
  orders: number,
): Promise<{ orders: string; changes: string }> {
  const documents = limitDocuments(data, orders);
  const files = { orders: `${dir}/limit-orders.ndjson`, changes: `${dir}/limit-changes.ndjson` };
  await writeLines(files.orders, orders, (n) => [documents.order(n)]);
  await writeLines(files.changes, orders, documents.changes);
  return files;
}
