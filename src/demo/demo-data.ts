/**
 * Realistic demo orders and airline changes, as the documents an operator would import. Seeded, so
 * the same N gives the same data: several currencies, multi-booking orders, children and infants,
 * partly flown tickets, and pending schedule changes, flight cancellations and reroutings.
 */

export const DEMO_AGENCY = {
  agencyId: 'DEMO01',
  name: 'Demo Travel',
  iataNumber: '12345678',
  email: 'ops@demo-travel.example',
} as const;

type Carrier = 'LH' | 'BA' | 'NH' | 'KU' | 'LX' | 'AA';

interface Route {
  carrier: Carrier;
  origin: string;
  destination: string;
  hours: number;
  via: string;
}

const ROUTES: Route[] = [
  { carrier: 'LH', origin: 'FRA', destination: 'JFK', hours: 9, via: 'MUC' },
  { carrier: 'BA', origin: 'LHR', destination: 'SIN', hours: 13, via: 'DXB' },
  { carrier: 'NH', origin: 'HND', destination: 'LAX', hours: 10, via: 'SFO' },
  { carrier: 'KU', origin: 'KWI', destination: 'LHR', hours: 7, via: 'IST' },
  { carrier: 'LX', origin: 'ZRH', destination: 'BKK', hours: 11, via: 'DOH' },
  { carrier: 'AA', origin: 'JFK', destination: 'MIA', hours: 3, via: 'CLT' },
];
/** `taxCode`: the government tax of the departure country, beside the carrier's surcharge YQ. */
const CURRENCIES: Record<
  Carrier,
  { currency: string; fare: number; taxes: number; decimals: number; taxCode: string }
> = {
  LH: { currency: 'EUR', fare: 45_000, taxes: 12_050, decimals: 2, taxCode: 'DE' },
  BA: { currency: 'GBP', fare: 61_000, taxes: 18_999, decimals: 2, taxCode: 'GB' },
  NH: { currency: 'JPY', fare: 98_000, taxes: 14_300, decimals: 0, taxCode: 'SW' },
  KU: { currency: 'KWD', fare: 145_500, taxes: 22_125, decimals: 3, taxCode: 'KW' },
  LX: { currency: 'CHF', fare: 88_000, taxes: 9_870, decimals: 2, taxCode: 'CH' },
  AA: { currency: 'USD', fare: 19_900, taxes: 4_567, decimals: 2, taxCode: 'US' },
};

/**
 * What a voluntary refund needs, made from the ticket's serial rather than drawn from the seeded
 * sequence, so that the rest of the demo stays as it was: one ticket in five issued an hour ago
 * (still in its void window), the taxes split into a government tax and the YQ surcharge, and fare
 * rules that vary: refundable with a percentage or a fixed penalty, non-refundable, or none.
 */
function fareDetails(
  serial: number,
  now: number,
  baseFare: number,
  taxes: number,
  pricing: { decimals: number; taxCode: string },
) {
  const surcharge = Math.floor((taxes * 2) / 5);
  const rules = [
    { refundable: true, penaltyPercent: '10' },
    { refundable: true, penalty: decimal(Math.floor(baseFare / 4), pricing.decimals) },
    { refundable: false },
    { refundable: true, penaltyPercent: '12.5' },
    null,
  ][serial % 5];
  return {
    issuedAt: at(now, serial % 5 === 0 ? -1 : -24 * 10),
    taxBreakdown: [
      { code: pricing.taxCode, amount: decimal(taxes - surcharge, pricing.decimals) },
      { code: 'YQ', amount: decimal(surcharge, pricing.decimals) },
    ],
    ...(rules ? { fareRules: rules } : {}),
  };
}
const GIVEN = ['ADA', 'ALAN', 'GRACE', 'EDSGER', 'BARBARA', 'DONALD', 'KAREN', 'LINUS', 'MARGARET', 'TIM'];
const SURNAMES = [
  'LOVELACE',
  'TURING',
  'HOPPER',
  'DIJKSTRA',
  'LISKOV',
  'KNUTH',
  'SPARCK',
  'TORVALDS',
  'HAMILTON',
  'LEE',
];
const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Mulberry32: small, fast and good enough for demo data. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
  };
}

function decimal(minor: number, decimals: number): string {
  if (decimals === 0) return String(minor);
  const digits = String(minor).padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

function at(base: number, hours: number): string {
  return new Date(base + hours * 3_600_000).toISOString().replace('.000Z', 'Z');
}

export interface DemoData {
  orders: object[];
  changes: object[];
}

export function demoData(count: number, clockNow = Date.now()): DemoData {
  // Whole minutes read better in itineraries than the milliseconds of the moment.
  const now = Math.floor(clockNow / 60_000) * 60_000;
  const random = seeded(20261122);
  const orders: object[] = [];
  const changes: object[] = [];
  const usedReferences = new Set<string>();
  let ticketSerial = 0;

  const reference = () => {
    for (;;) {
      const candidate = Array.from({ length: 6 }, () => random.pick([...REFERENCE_ALPHABET])).join('');
      if (!usedReferences.has(candidate)) {
        usedReferences.add(candidate);
        return candidate;
      }
    }
  };

  for (let index = 1; index <= count; index += 1) {
    const orderId = `DEMO-${String(index).padStart(6, '0')}`;
    const route = random.pick(ROUTES);
    const pricing = CURRENCIES[route.carrier];
    const bookingCount = random.next() < 0.2 ? 2 : 1;
    const bookings = [];
    for (let b = 0; b < bookingCount; b += 1) {
      const gdsBookingReference = reference();
      const connecting = random.next() < 0.5;
      // Some connecting trips started yesterday: their first coupon is flown.
      const partlyFlown = connecting && random.next() < 0.4;
      const start = partlyFlown ? now - 20 * 3_600_000 : now + random.int(2, 60) * 86_400_000;
      const segments = connecting
        ? [
            {
              segmentId: 'S1',
              carrier: route.carrier,
              flightNumber: String(random.int(100, 999)),
              origin: route.origin,
              destination: route.via,
              departure: at(start, 0),
              arrival: at(start, 2),
            },
            {
              segmentId: 'S2',
              carrier: route.carrier,
              flightNumber: String(random.int(100, 999)),
              origin: route.via,
              destination: route.destination,
              departure: at(start, 30),
              arrival: at(start, 30 + route.hours),
            },
          ]
        : [
            {
              segmentId: 'S1',
              carrier: route.carrier,
              flightNumber: String(random.int(100, 999)),
              origin: route.origin,
              destination: route.destination,
              departure: at(start, 0),
              arrival: at(start, route.hours),
            },
          ];
      const types = [
        'ADT',
        ...(random.next() < 0.4 ? ['ADT'] : []),
        ...(random.next() < 0.3 ? ['CHD'] : []),
        ...(random.next() < 0.15 ? ['INF'] : []),
      ];
      const passengers = types.map((type, p) => {
        const share = type === 'INF' ? 10 : type === 'CHD' ? 75 : 100;
        const baseFare = Math.floor((pricing.fare * share) / 100);
        const taxes = type === 'INF' ? Math.floor(pricing.taxes / 4) : pricing.taxes;
        ticketSerial += 1;
        return {
          passengerId: `P${p + 1}`,
          type,
          givenName: random.pick(GIVEN),
          surname: random.pick(SURNAMES),
          ticket: {
            ticketNumber: `220${String(ticketSerial).padStart(10, '0')}`,
            baseFare: decimal(baseFare, pricing.decimals),
            taxes: decimal(taxes, pricing.decimals),
            coupons: segments.map((segment, s) => ({
              segmentId: segment.segmentId,
              status: partlyFlown && s === 0 ? 'USED' : 'OPEN',
            })),
            ...fareDetails(ticketSerial, now, baseFare, taxes, pricing),
          },
        };
      });
      bookings.push({ gdsBookingReference, status: 'CONFIRMED', segments, passengers });

      const last = segments.at(-1)!;
      const roll = random.next();
      const detectedAt = at(now, -random.int(1, 48));
      // The airline's time limit: from 6 hours (already "approaching") to 4 days ahead, never drawn
      // from `random`, so the demo's orders stay the same as before deadlines existed.
      const actionDeadline = at(now, 6 + ((index * 7 + b * 13) % 91));
      if (roll < 0.2) {
        changes.push({
          changeId: `AIC-${orderId}-${b + 1}`,
          orderId,
          gdsBookingReference,
          kind: 'SCHEDULE_CHANGE',
          detectedAt,
          actionDeadline,
          removedSegments: [last.segmentId],
          addedSegments: [
            {
              ...last,
              segmentId: `${last.segmentId}B`,
              departure: at(Date.parse(last.departure), 4),
              arrival: at(Date.parse(last.arrival), 4),
            },
          ],
        });
      } else if (roll < 0.35) {
        changes.push({
          changeId: `AIC-${orderId}-${b + 1}`,
          orderId,
          gdsBookingReference,
          kind: 'FLIGHT_CANCELLATION',
          detectedAt,
          actionDeadline,
          removedSegments: [last.segmentId],
          addedSegments: [],
        });
      } else if (roll < 0.45) {
        const departure = Date.parse(last.departure);
        changes.push({
          changeId: `AIC-${orderId}-${b + 1}`,
          orderId,
          gdsBookingReference,
          kind: 'ROUTING_CHANGE',
          detectedAt,
          actionDeadline,
          removedSegments: [last.segmentId],
          addedSegments: [
            {
              segmentId: `${last.segmentId}R1`,
              carrier: last.carrier,
              flightNumber: String(random.int(100, 999)),
              origin: last.origin,
              destination: 'AMS',
              departure: at(departure, 1),
              arrival: at(departure, 3),
            },
            {
              segmentId: `${last.segmentId}R2`,
              carrier: last.carrier,
              flightNumber: String(random.int(100, 999)),
              origin: 'AMS',
              destination: last.destination,
              departure: at(departure, 5),
              arrival: at(departure, 6 + route.hours),
            },
          ],
        });
      }
    }
    orders.push({ orderId, agencyId: DEMO_AGENCY.agencyId, currency: pricing.currency, bookings });
  }
  return { orders, changes };
}
