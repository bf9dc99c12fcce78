import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { OPENAPI_PATH } from './openapi-document.js';

/**
 * What the docs page needs, and no more: its own scripts and styles, its own images and the data:
 * icons Swagger UI draws with, and requests to this service for the document and for "Try it out".
 * Nothing from elsewhere: every asset is served by the service itself from @fastify/swagger-ui.
 * (test/e2e/docs-page.test.ts checks in Chromium that the page breaks none of these rules.)
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_UI_CONFIG_PATH = '/docs/ui-config.json';

/** Human docs at GET /docs: Swagger UI over the OpenAPI document, served entirely by the service. */
export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  // Swagger UI reads its settings from here and loads the document it names: the page then shows
  // and links /openapi.json, the address agencies use, and not the plugin's own copy at /docs/json.
  // Like every route but the operations, it is left out of the document (documentRoute).
  app.get(DOCS_UI_CONFIG_PATH, async () => ({ url: OPENAPI_PATH }));
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Only the docs' own routes get this policy (the plugin's hook is scoped to them); every other
    // response keeps the strict one of security-headers.ts.
    staticCSP: DOCS_CONTENT_SECURITY_POLICY,
    validatorUrl: false,
    theme: { title: 'airorder API' },
    uiConfig: {
      configUrl: DOCS_UI_CONFIG_PATH,
      layout: 'BaseLayout',
      docExpansion: 'list',
      deepLinking: true,
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      tryItOutEnabled: false,
    },
  });
}
