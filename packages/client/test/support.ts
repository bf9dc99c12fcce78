/**
 * Shared by the client's tests: the real service (test/helpers/test-service.ts), documents in
 * several currencies, and a TCP proxy that can drop a response after the service has sent it.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { booking, change, order, passenger, segment, type SegmentDoc } from '../../../test/helpers/documents.js';
import type { TestService } from '../../../test/helpers/test-service.js';
import { AirOrderClient, type ClientOptions, type RetryInfo } from '../src/index.js';

export { servedOpenApiDocument, startTestService, type TestService } from '../../../test/helpers/test-service.js';

/** A client on the test service for the agency, with fast backoff unless told otherwise. */
export async function clientFor(
  service: TestService,
  agencyId: string,
  options: Partial<ClientOptions> & { onRetry?: (info: RetryInfo) => void } = {},
): Promise<AirOrderClient> {
  const token = await service.tokenFor(agencyId);
  return new AirOrderClient({
    baseUrl: service.baseUrl,
    token,
    initialRetryDelayMs: 20,
    maxRetryDelayMs: 100,
    ...options,
  });
}

export interface TicketSpec {
  ticketNumber: string;
  baseFare: string;
  taxes: string;
  /** One coupon per segment S1, S2, …: [status, value]. */
  coupons: [string, string][];
}

/** An order with one booking over as many segments as the first ticket has coupons, one passenger per ticket. */
export function orderDoc(
  orderId: string,
  agencyId: string,
  currency: string,
  reference: string,
  tickets: TicketSpec[],
) {
  const segmentCount = tickets[0]?.coupons.length ?? 1;
  const segments: SegmentDoc[] = Array.from({ length: segmentCount }, (_, index) =>
    segment(`S${index + 1}`, index + 1),
  );
  return order(orderId, agencyId, currency, [
    booking(
      reference,
      segments,
      tickets.length === 0
        ? [passenger('P1', null)]
        : tickets.map((ticket, index) =>
            passenger(`P${index + 1}`, {
              ticketNumber: ticket.ticketNumber,
              baseFare: ticket.baseFare,
              taxes: ticket.taxes,
              coupons: ticket.coupons.map(([status, value], position) => ({
                segmentId: `S${position + 1}`,
                status,
                value,
              })),
            }),
          ),
    ),
  ]);
}

/** A pending flight cancellation of S1 on the booking. */
export function cancellationOf(orderId: string, reference: string, removed = ['S1']) {
  return change(`${orderId}-${reference}-C`, orderId, reference, removed, [], 'FLIGHT_CANCELLATION');
}

/** A pending schedule change replacing S1 by S1B. */
export function scheduleChangeOf(orderId: string, reference: string) {
  return change(`${orderId}-${reference}-SC`, orderId, reference, ['S1'], [segment('S1B', 1, 14)], 'SCHEDULE_CHANGE');
}

/** The service's per-request log lines ("msg": "request") for one request id; waits, as they are written once the response is sent. */
export async function logLinesOf(service: TestService, requestId: string): Promise<Record<string, unknown>[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const lines = service.logs.filter((line) => line.requestId === requestId && line.msg === 'request');
    if (lines.length > 0) return lines;
    await sleep(10);
  }
  return [];
}

/** Holds SQLite's write lock from a second connection, so that the service's requests wait for it. */
export function holdWriteLock(service: TestService): { release(): void } {
  const db = new Database(service.databaseUrl.slice('sqlite:'.length));
  db.exec('begin immediate');
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      db.exec('commit');
      db.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------

export interface DroppingProxy {
  baseUrl: string;
  /** The raw bytes each connection sent, as text (request heads and bodies). */
  received: string[];
  /** The Idempotency-Key of every request that went through, in order. */
  idempotencyKeys(): string[];
  /** Header values of every request that went through, for one (lower-case) header name. */
  headerValues(name: string): string[];
  /** How many responses were dropped so far. */
  dropped: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the service that forwards requests unchanged, and for the first `drop`
 * responses resets the client's connection as soon as the service starts answering: the service
 * has processed and committed the request (it answers only after committing), the client never
 * learns the outcome.
 */
export async function startDroppingProxy(targetBaseUrl: string, drop = 1): Promise<DroppingProxy> {
  const target = new URL(targetBaseUrl);
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  let toDrop = drop;
  const proxy: DroppingProxy = {
    baseUrl: '',
    received,
    dropped: 0,
    idempotencyKeys: () => proxy.headerValues('idempotency-key'),
    headerValues: (name) =>
      received.flatMap((text) =>
        [...text.matchAll(/^([^:\r\n]+):[ \t]*(.*?)\r$/gm)]
          .filter((match) => match[1]!.toLowerCase() === name)
          .map((match) => match[2]!),
      ),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    const index = received.push('') - 1;
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      received[index] += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (toDrop > 0) {
        toDrop -= 1;
        proxy.dropped += 1;
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  proxy.baseUrl = `http://127.0.0.1:${address.port}`;
  return proxy;
}
