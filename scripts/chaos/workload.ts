/**
 * What the chaos run acts on: two agencies' orders, each booking with a pending airline change, and
 * the plan of change requests the agencies' clients send. Everything comes from the seed, so that a
 * run replays; only the deadlines are placed on the clock of the run.
 */
import {
  acceptRQ,
  cancelRQ,
  change,
  familyBooking,
  involuntaryCancelRQ,
  order,
  segment,
} from '../../test/helpers/documents.js';

export type Operation = 'cancel' | 'accept' | 'involuntaryCancel';

export const OPERATIONS: Record<
  Operation,
  {
    path: string;
    root: string;
    items: string;
    message: string;
    body: (orderId: string, references: string[]) => object;
  }
> = {
  cancel: { path: '/AirOrderCancel', root: 'OrderViewRS', items: 'Response', message: 'Msg', body: cancelRQ },
  accept: {
    path: '/AirOrderInvoluntaryAccept',
    root: 'OrderInvoluntaryAcceptRS',
    items: 'Result',
    message: 'ErrorMsg',
    body: acceptRQ,
  },
  involuntaryCancel: {
    path: '/AirOrderInvoluntaryCancel',
    root: 'OrderInvoluntaryCancelRS',
    items: 'Result',
    message: 'ErrorMsg',
    body: involuntaryCancelRQ,
  },
};

/** `client`: requests act on it; `deadline`: its change's deadline falls during the run, left to the scheduler; `untouched`: nothing may happen to it. */
export type Role = 'client' | 'deadline' | 'untouched';

export interface ChaosBooking {
  agencyId: string;
  orderId: string;
  reference: string;
  changeId: string;
  /** [partly flown: PARTIAL refund of 75.05; unflown: FULL refund of 150.10] */
  tickets: [string, string];
  role: Role;
  deadline: { at: string; consequence: 'ACCEPT' | 'CANCEL' } | null;
}

/** One act of an agency on one order: each racer is a request of its own (its own Idempotency-Key), all sent at once. */
export interface Job {
  agencyId: string;
  orderId: string;
  references: string[];
  racers: Operation[];
}

export interface Workload {
  agencies: string[];
  orders: object[];
  changes: object[];
  bookings: ChaosBooking[];
  /** Per agency, the jobs its clients take in turn. */
  jobs: Map<string, Job[]>;
}

export const AGENCIES = ['CHAOSA', 'CHAOSB'];

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/**
 * `ordersPerAgency` orders of two bookings. One booking in ten has a deadline somewhere in
 * [deadlinesFrom, deadlinesUntil] and is never sent; one in twenty is left alone; the rest are acted on,
 * mostly one request at a time, a fifth of the time by two or three racing requests, some naming
 * both bookings of their order.
 */
export function planWorkload(
  random: () => number,
  ordersPerAgency: number,
  deadlinesFrom: number,
  deadlinesUntil: number,
): Workload {
  const workload: Workload = { agencies: AGENCIES, orders: [], changes: [], bookings: [], jobs: new Map() };
  AGENCIES.forEach((agencyId, a) => {
    const jobs: Job[] = [];
    for (let o = 0; o < ordersPerAgency; o += 1) {
      const orderId = `${agencyId}-${o}`;
      const mine: ChaosBooking[] = [];
      const documents = [0, 1].map((b) => {
        const n = o * 2 + b;
        const reference = `${'AB'[a]}K${String(n).padStart(5, '0')}`;
        const tickets: [string, string] = [
          `22${a + 5}${String(n * 2).padStart(10, '0')}`,
          `22${a + 5}${String(n * 2 + 1).padStart(10, '0')}`,
        ];
        const draw = random();
        const role: Role = draw < 0.1 ? 'deadline' : draw < 0.15 ? 'untouched' : 'client';
        const deadline =
          role === 'deadline'
            ? {
                at: new Date(deadlinesFrom + random() * (deadlinesUntil - deadlinesFrom)).toISOString(),
                consequence: random() < 0.5 ? ('ACCEPT' as const) : ('CANCEL' as const),
              }
            : null;
        const changeId = `AIC-${reference}`;
        workload.changes.push({
          ...change(changeId, orderId, reference, ['S2'], [segment('S2B', 8, 14)]),
          ...(deadline ? { actionDeadline: deadline.at, consequenceOfInaction: deadline.consequence } : {}),
        });
        const stored: ChaosBooking = { agencyId, orderId, reference, changeId, tickets, role, deadline };
        mine.push(stored);
        workload.bookings.push(stored);
        return familyBooking(reference, [tickets[0]!, tickets[1]!]);
      });
      workload.orders.push(order(orderId, agencyId, 'EUR', documents));
      const acted = mine.filter((target) => target.role === 'client');
      const together = acted.length === 2 && random() < 0.2;
      for (const group of together ? [acted] : acted.map((target) => [target])) {
        const racers = random() < 0.2 ? 2 + Math.floor(random() * 2) : 1;
        jobs.push({
          agencyId,
          orderId,
          references: group.map((target) => target.reference),
          racers: Array.from({ length: racers }, () =>
            pick(random, ['cancel', 'accept', 'involuntaryCancel'] as const),
          ),
        });
      }
    }
    workload.jobs.set(agencyId, jobs);
  });
  return workload;
}

/** The refund an involuntary cancel makes of a booking of this workload, as the wire says it. */
export function expectedRefund(target: ChaosBooking): { TicketNumber: string; Amount: number }[] {
  return [
    { TicketNumber: target.tickets[0], Amount: 75.05 },
    { TicketNumber: target.tickets[1], Amount: 150.1 },
  ];
}
