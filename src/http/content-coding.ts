import type { FastifyInstance } from 'fastify';

/**
 * Content codings are case-insensitive (RFC 9110, 8.4.1): `GZIP` is `gzip`. The decompression of
 * request bodies (@fastify/compress) and the console's refusal of compressed forms compare the
 * header exactly, so it is written in lower case, without surrounding space, before either sees it.
 */
export function installContentCodingCase(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const coding = request.headers['content-encoding'];
    if (coding !== undefined) request.headers['content-encoding'] = coding.trim().toLowerCase();
  });
}
