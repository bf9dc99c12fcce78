/**
 * HTTP/1.1 over a bare TCP socket, for requests no HTTP client will send: a Content-Length that
 * does not match the body, duplicated or odd headers, bytes in any encoding. Reads the first
 * response on the connection (Content-Length or chunked framing) and closes it.
 */
import net from 'node:net';
import zlib from 'node:zlib';
import { scaled } from './time-scale.js';

export interface SocketResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as sent (still compressed when Content-Encoding says so). */
  raw: Buffer;
}

export interface SocketRequest {
  method?: string;
  path: string;
  /** Sent in this order, exactly as given; no header is added. */
  headers: [string, string][];
  body?: Buffer | string;
  /** Half-close the connection after writing (for bodies shorter than their Content-Length). */
  endAfterWrite?: boolean;
  timeoutMs?: number;
}

/**
 * Sends the request and resolves with the first response, or null when the server closed the
 * connection without answering.
 */
export function socketRequest(port: number, request: SocketRequest): Promise<SocketResponse | null> {
  const head =
    `${request.method ?? 'POST'} ${request.path} HTTP/1.1\r\n` +
    request.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('') +
    '\r\n';
  const body =
    request.body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | null, response: SocketResponse | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(response);
    };
    const limitMs = scaled(request.timeoutMs ?? 10_000);
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${limitMs} ms to ${request.path}`), null),
      limitMs,
    );
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
      if (request.endAfterWrite) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      try {
        const response = parseResponse(received);
        if (response) finish(null, response);
      } catch (error) {
        finish(error as Error, null);
      }
    });
    // A reset after the server answered and closed is not an error of the exchange.
    socket.on('error', (error) => {
      if (received.length === 0 && (error as NodeJS.ErrnoException).code === 'ECONNRESET') finish(null, null);
      else finish(error, null);
    });
    socket.on('close', () => {
      if (received.length === 0) finish(null, null);
      else finish(new Error(`incomplete response: ${received.toString('latin1').slice(0, 300)}`), null);
    });
  });
}

/** The first complete response in `bytes`, or null when more bytes are needed. */
function parseResponse(bytes: Buffer): SocketResponse | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!statusLine) throw new Error(`not an HTTP response: ${lines[0]}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const rest = bytes.subarray(end + 4);
  // An interim answer (100 Continue) is followed by the real one.
  if (statusLine[1]!.startsWith('1')) return parseResponse(rest);
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
    const chunks: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', offset);
      if (lineEnd < 0) return null;
      const size = Number.parseInt(rest.subarray(offset, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      if (rest.length < lineEnd + 2 + size + 2) return null;
      if (size === 0) return { status: Number(statusLine[1]), headers, raw: Buffer.concat(chunks) };
      chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers['content-length'] ?? 0);
  if (rest.length < length) return null;
  return { status: Number(statusLine[1]), headers, raw: rest.subarray(0, length) };
}

/** The body decoded as its Content-Encoding says, as text. */
export function decodedText(headers: Record<string, string | string[] | undefined>, raw: Buffer): string {
  const encoding = String(headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'gzip') return zlib.gunzipSync(raw).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(raw).toString('utf8');
  if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'identity') return raw.toString('utf8');
  throw new Error(`unexpected Content-Encoding ${encoding}`);
}
