import type { FastifyInstance } from 'fastify';

/**
 * Content codings are case-insensitive (RFC 9110, 8.4.1): `GZIP` is `gzip`. The decompression of
 * request bodies (@fastify/compress) and the console's refusal of compressed forms compare the
 * header exactly, so it is written in lower case before either sees it (Node's parser has already
 * taken the white space around it away). A callback hook: it runs on every request, and costs no
 * promise.
 */
export function installContentCodingCase(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const coding = request.headers['content-encoding'];
    if (coding !== undefined) request.headers['content-encoding'] = coding.toLowerCase();
    done();
  });
}
