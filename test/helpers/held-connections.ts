/**
 * Connections that send part of a request and then nothing, as a client that wants to hold the
 * server's connections would, and plain one-shot requests from a chosen loopback address (Linux
 * answers on the whole of 127.0.0.0/8, so each address is a client of its own).
 */
import http from 'node:http';
import net from 'node:net';
import { scaled } from './time-scale.js';

export interface HeldConnection {
  socket: net.Socket;
  /** Whether the server has closed it (or reset it). */
  closed: boolean;
  /** What the server sent before closing, if anything. */
  received: string;
}

/** A request line and one header, then silence: the request is never complete. */
export const HALF_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: airorder\r\n';

/** Opens `count` connections from `localAddress`, one after the other, each sending `HALF_REQUEST` once connected. */
export async function holdConnections(
  port: number,
  localAddress: string,
  count: number,
  opening: string = HALF_REQUEST,
): Promise<HeldConnection[]> {
  const held: HeldConnection[] = [];
  for (let index = 0; index < count; index += 1) {
    held.push(
      await new Promise<HeldConnection>((resolve, reject) => {
        const socket = net.connect({ host: '127.0.0.1', port, localAddress });
        const connection: HeldConnection = { socket, closed: false, received: '' };
        socket.on('data', (chunk: Buffer) => {
          connection.received += chunk.toString('latin1');
        });
        // A reset by the server is one way of being closed.
        socket.on('error', () => {});
        socket.on('close', () => {
          connection.closed = true;
        });
        socket.once('connect', () => {
          if (opening) socket.write(opening);
          resolve(connection);
        });
        socket.once('error', (error) => {
          if (!socket.connecting) return;
          reject(error);
        });
      }),
    );
  }
  return held;
}

export function release(held: HeldConnection[]): void {
  for (const connection of held) connection.socket.destroy();
}

/**
 * Waits until `condition` holds, checking every 20 ms (after `refresh`, when given, which reads
 * what it looks at); fails after `ms` (times TEST_TIME_SCALE) naming `what` (a guard against a hang, not a speed check).
 */
export async function waitFor(
  condition: () => boolean,
  what: string,
  ms = 15_000,
  refresh?: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + scaled(ms);
  for (;;) {
    await refresh?.();
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, refresh ? 200 : 20));
  }
}

export interface Answer {
  status: number;
  text: string;
}

/**
 * GET `pathName` over a new connection from `localAddress` (no pooled connection, which would count
 * against that address for as long as it is kept). Resolves with the answer, or with status 0 when
 * the server closed the connection without one.
 */
export function getFrom(port: number, localAddress: string, pathName: string, timeoutMs = 15_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: pathName,
        localAddress,
        agent: false,
        headers: { connection: 'close' },
        timeout: scaled(timeoutMs),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer to ${pathName} within ${timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.message === 'socket hang up') resolve({ status: 0, text: '' });
      else reject(error);
    });
  });
}

/** The value of one sample of the Prometheus text, such as `airorder_connections_refused_total{cap="address"}`; null when absent. */
export function sample(metrics: string, name: string): number | null {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? null : Number(line.slice(name.length + 1));
}
