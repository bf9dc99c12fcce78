import type { FastifyInstance } from 'fastify';

// A JSON API: nothing to frame, sniff, cache or embed. Set before anything else can answer,
// so that errors carry them too.
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    void reply.headers(SECURITY_HEADERS);
  });
}
