/**
 * Uploads over a bare socket that prove what the server read: `heldUpload` sends the headers and a
 * small part of the body, then waits for the answer before it offers the rest; `pushedUpload` sends
 * the whole body as fast as the server takes it. Bodies are made piece by piece (`BodySource`), so a
 * 90 MiB upload is never one buffer in the test either.
 */
import net from 'node:net';
import zlib from 'node:zlib';
import { scaled } from './time-scale.js';

export interface BodySource {
  length: number;
  /** The body's bytes, in pieces, in order. */
  pieces(): Iterable<Buffer>;
}

export interface HeldAnswer {
  status: number;
  headers: Record<string, string>;
  /** Body bytes sent when the answer's headers arrived. */
  sentBeforeAnswer: number;
  /** The server closed the connection instead of reading the rest. */
  closedAfterAnswer: boolean;
}

function head(path: string, headers: Record<string, string>, length: number): Buffer {
  const lines = Object.entries({ host: '127.0.0.1', ...headers, 'content-length': String(length) }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  return Buffer.from(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`, 'latin1');
}

function parseHead(bytes: Buffer): { status: number; headers: Record<string, string> } | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]), headers };
}

/**
 * Sends the headers and the first `prefixBytes` of the body, and nothing more until the answer's
 * headers have arrived; then offers the rest and tells whether the server closed the connection
 * rather than read it.
 */
export function heldUpload(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: BodySource,
  prefixBytes = 64 * 1024,
): Promise<HeldAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let answer: { status: number; headers: Record<string, string> } | null = null;
    let sent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${path} with ${sent} of ${body.length} body bytes sent`));
    }, scaled(30_000));
    socket.on('connect', () => {
      socket.write(head(path, headers, body.length));
      for (const piece of body.pieces()) {
        const room = prefixBytes - sent;
        if (room <= 0) break;
        const part = piece.subarray(0, room);
        socket.write(part);
        sent += part.length;
      }
    });
    socket.on('data', (chunk: Buffer) => {
      if (answer) return;
      received = Buffer.concat([received, chunk]);
      answer = parseHead(received);
      if (!answer) return;
      const sentBeforeAnswer = sent;
      // The rest is offered only now; a server that stopped reading closes the connection.
      const closed = new Promise<boolean>((settle) => {
        const giveUp = setTimeout(() => {
          socket.destroy();
          settle(false);
        }, scaled(20_000));
        socket.on('close', () => {
          clearTimeout(giveUp);
          settle(true);
        });
      });
      void (async () => {
        let skipped = 0;
        for (const piece of body.pieces()) {
          if (socket.destroyed) break;
          const start = Math.max(0, sentBeforeAnswer - skipped);
          skipped += piece.length;
          if (start >= piece.length) continue;
          if (!socket.write(piece.subarray(start)))
            await new Promise((drained) => {
              socket.once('drain', drained);
              socket.once('close', drained);
            });
        }
      })();
      void closed.then((closedAfterAnswer) => {
        clearTimeout(timer);
        resolve({ ...answer!, sentBeforeAnswer, closedAfterAnswer });
      });
    });
    socket.on('error', () => {
      /* the server closing on us while we send is the point */
    });
  });
}

/** Sends the whole body without waiting for anything; resolves with the status (null if closed unanswered). */
export function pushedUpload(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: BodySource,
): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let status: number | null = null;
    socket.on('connect', () => {
      void (async () => {
        socket.write(head(path, headers, body.length));
        for (const piece of body.pieces()) {
          if (socket.destroyed) return;
          if (!socket.write(piece))
            await new Promise((drained) => {
              socket.once('drain', drained);
              socket.once('close', drained);
            });
        }
      })();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      status ??= parseHead(received)?.status ?? null;
    });
    socket.on('error', () => {
      /* closed by the server while sending */
    });
    socket.on('close', () => resolve(status));
  });
}

const BOUNDARY = '----airorder-test-boundary';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart form with one file of `fileBytes` bytes of one repeated letter. */
export function multipartOfSize(fileBytes: number): BodySource {
  const start = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.ndjson"\r\nContent-Type: application/json\r\n\r\n`,
  );
  const end = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const block = Buffer.alloc(1024 * 1024, 'a');
  return {
    length: start.length + fileBytes + end.length,
    *pieces() {
      yield start;
      for (let left = fileBytes; left > 0; left -= block.length)
        yield left >= block.length ? block : block.subarray(0, left);
      yield end;
    },
  };
}

/** The same form gzipped: about a thousandth of its size on the wire (a "zip bomb"). */
export function gzipped(source: BodySource): BodySource {
  const whole = zlib.gzipSync(Buffer.concat([...source.pieces()]), { level: 9 });
  return {
    length: whole.length,
    *pieces() {
      yield whole;
    },
  };
}
