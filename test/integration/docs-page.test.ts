/**
 * GET /docs served by the service itself (src/http/openapi/docs-page.ts): the page, its own
 * Content-Security-Policy, the settings Swagger UI starts with and the document they name. What the
 * page does in a browser is test/e2e/docs-page.test.ts's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/test-service.js';

/** The docs' policy, as docs-page.ts's comment gives its reasons: everything from the service itself. */
const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

const get = (pathName: string) => service.request(pathName, { method: 'GET', redirect: 'manual' });

test('GET /docs is the Swagger UI page titled "airorder API", under the docs policy', async () => {
  const page = await get('/docs');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(page.text, /<title>airorder API<\/title>/);
  assert.match(page.text, /<script src="\/docs\/static\/swagger-initializer\.js"/);
  assert.equal(page.headers.get('content-security-policy'), DOCS_POLICY);
  // The other security headers stay as on every response.
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  assert.equal(page.headers.get('cache-control'), 'no-store');
});

test("the page's scripts are served from /docs/static under the same policy", async () => {
  const script = await get('/docs/static/swagger-initializer.js');
  assert.equal(script.status, 200);
  assert.equal(script.headers.get('content-security-policy'), DOCS_POLICY);
});

test('Swagger UI starts with its settings from /docs/ui-config.json and no outside validator', async () => {
  const script = await get('/docs/static/swagger-initializer.js');
  const config = /const config = (\{.*\})\n/.exec(script.text);
  assert.ok(config, script.text);
  assert.deepEqual(JSON.parse(config[1]!), {
    configUrl: '/docs/ui-config.json',
    layout: 'BaseLayout',
    docExpansion: 'list',
    deepLinking: true,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
  });
  // Swagger UI would otherwise send the document to validator.swagger.io.
  assert.match(script.text, /validatorUrl: null,/);
});

test('/docs/ui-config.json names /openapi.json, the document agencies use, and is not in it', async () => {
  const settings = await get('/docs/ui-config.json');
  assert.equal(settings.status, 200);
  assert.deepEqual(settings.body, { url: '/openapi.json' });
  assert.equal(settings.headers.get('content-security-policy'), API_POLICY);
  const document = await get(settings.body.url);
  assert.equal(document.status, 200);
  assert.equal(document.body.openapi, '3.1.0');
  assert.equal(document.body.paths['/docs/ui-config.json'], undefined);
  assert.ok(Object.keys(document.body.paths).every((pathName) => !pathName.startsWith('/docs')));
});
