/**
 * Bodies of an exact size for the console's limits, sent the two ways a client may: with a
 * Content-Length (the service may refuse before reading) or chunked, without one (the service must
 * count what it reads). Bodies are made piece by piece, so 100 MiB is never one buffer in the test.
 * And a row count on the service's store, SQLite or PostgreSQL, from its DATABASE_URL.
 */
import http from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * POSTs `pieces` (of `length` bytes in all) to `url`; `chunked` leaves Content-Length out. The answer
 * may come before the whole body is sent: the rest is then offered until the service closes.
 */
export function sendBody(
  url: string,
  headers: Record<string, string>,
  body: { length: number; pieces(): Iterable<Buffer> },
  chunked = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: chunked ? headers : { ...headers, 'content-length': String(body.length) },
    });
    request.on('response', (response) => {
      let text = '';
      response
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          text += chunk;
        })
        .on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }))
        .on('error', reject);
    });
    // Once answered, a write to a connection the service closed fails: that is the refusal, not an error.
    let answered = false;
    request.on('response', () => {
      answered = true;
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for (const piece of body.pieces()) {
        if (request.destroyed || answered) return;
        if (!request.write(piece))
          await new Promise<void>((drained) => {
            const done = () => {
              request.off('drain', done);
              request.off('close', done);
              drained();
            };
            request.on('drain', done);
            request.on('close', done);
          });
      }
      if (!request.destroyed) request.end();
    })();
  });
}

/** One piece, for a small body. */
export function wholeBody(text: string): { length: number; pieces(): Iterable<Buffer> } {
  const bytes = Buffer.from(text);
  return { length: bytes.length, pieces: () => [bytes] };
}

/** `count(*)` of a query on the store at `databaseUrl` (an `sqlite:` file or a PostgreSQL URL). */
export async function countRows(databaseUrl: string, query: string): Promise<number> {
  const text = `select count(*) as n from (${query}) as counted`;
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      return Number((db.prepare(text).get() as { n: number }).n);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(text)).rows[0]!.n);
  } finally {
    await client.end();
  }
}
