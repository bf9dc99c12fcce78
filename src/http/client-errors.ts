import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { REQUEST_ERRORS } from '../errors/error-codes.js';
import { SECURITY_HEADERS } from './security-headers.js';

const answered = new WeakSet<Socket>();

/**
 * Requests Node's HTTP parser rejects before any route sees them (headers over the size limit,
 * malformed request lines) or that do not arrive in full in time still get a JSON body in the
 * catalogue's form, an X-Request-Id and their log line. Fastify calls this bound to the app.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  // Bytes after a complete request (a body longer than its Content-Length) are malformed, but that
  // request is still answered first, in its envelope; only then does this answer close the connection.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
    inFlight.once('close', () => answer(error, socket, this.log));
    return;
  }
  answer(error, socket, this.log);
}

function failureOf(error: NodeJS.ErrnoException): {
  code: 'REQUEST_HEADER_TOO_LARGE' | 'REQUEST_TIMEOUT' | 'INVALID_REQUEST';
  message: string;
} {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'REQUEST_HEADER_TOO_LARGE', message: REQUEST_ERRORS.REQUEST_HEADER_TOO_LARGE.message };
    // Headers or body still incomplete at RECEIVE_TIMEOUT_MS: the client is too slow, or gone silent.
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: REQUEST_ERRORS.REQUEST_TIMEOUT.message };
    default:
      return { code: 'INVALID_REQUEST', message: 'The HTTP request is malformed.' };
  }
}

function answer(error: NodeJS.ErrnoException, socket: Socket, log: FastifyBaseLogger): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { code, message } = failureOf(error);
  const status = REQUEST_ERRORS[code].status;
  const requestId = randomUUID();
  const body = JSON.stringify({ Errors: [{ Code: code, Message: message }] });
  const security = Object.entries(SECURITY_HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${security}` +
      `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
  // The request log line's fields (http/request-log.ts), but for what is not known of a request no
  // route saw: its agency, operation and start; `cause` is what Node's parser reported.
  log.info({ requestId, agency: null, operation: null, code, status, cause: error.code ?? null }, 'request');
}
