import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scaled } from './time-scale.js';

/** One request a receiver got, as it arrived. */
/** How the receiver answers one request: a status, or `hang` (never answer), `drop` (close the connection). */
export type Answer = number | 'hang' | 'drop';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
  answer: Answer;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The answers of the next requests, in order; after them, `otherwise`. */
  script(answers: Answer[], otherwise?: Answer): void;
  /** Each answer decided by `choose` as the request arrives (it sees the request), instead of a script. */
  answerBy(choose: (request: Omit<Received, 'answer'>) => Answer): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback, as an agency would run one, with scripted answers. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let queue: Answer[] = [];
  let fallback: Answer = 204;
  let chooser: ((request: Omit<Received, 'answer'>) => Answer) | null = null;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrived = {
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const answer = chooser ? chooser(arrived) : queue.length > 0 ? queue.shift()! : fallback;
      received.push({ ...arrived, answer });
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      if (answer === 'drop') {
        request.socket.destroy();
        return;
      }
      response
        .writeHead(answer, answer >= 300 && answer < 400 ? { location: 'http://127.0.0.1:1/elsewhere' } : {})
        .end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks/airorder`,
    port: actual,
    received,
    script(answers, otherwise = 204) {
      queue = [...answers];
      fallback = otherwise;
      chooser = null;
    },
    answerBy(choose) {
      chooser = choose;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `done()` holds, checking every 50 ms, for at most `ms` times TEST_TIME_SCALE. */
export async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const limit = Date.now() + scaled(ms);
  while (Date.now() < limit) {
    if (await done()) return true;
    await sleep(50);
  }
  return done();
}
