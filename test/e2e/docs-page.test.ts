/**
 * GET /docs in a real headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * the page renders the seven operations from the service's own OpenAPI document, "Try it out" calls
 * the service, the page breaks no rule of its Content-Security-Policy, and every request it makes
 * goes to the service on loopback. Without Chromium the test fails in CI (CI=true; .ci/run installs
 * it) and is skipped, with a message, elsewhere.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { bearer, booking, change, order, passenger, segment } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { scaled } from '../helpers/time-scale.js';

const CHROMIUM = '/usr/bin/chromium';
const missing = !fs.existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
const skip =
  missing && !inCi
    ? `${CHROMIUM} not found: install it with "apt-get install -y chromium" to run the docs-page test`
    : false;

/** In CI a missing browser is a failure, never a skip: .ci/run is meant to have installed it. */
function requireBrowser(): void {
  if (missing)
    assert.fail(
      `${CHROMIUM} is missing in CI: .ci/run installs Debian's chromium (apt-get install -y chromium) before npm test; without it the docs page cannot be tested`,
    );
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

let service: TestService;
let context: BrowserContext;
let profile: string;
let token: string;
/** Every URL the browser asked for, from any page or worker of the context. */
const requested: string[] = [];
const cspViolations: string[] = [];
const pageErrors: string[] = [];

before(async () => {
  if (missing) return;
  service = await startTestService();
  await service.addAgency('AGT042', { name: 'Blue Sky Travel', iataNumber: '12345678', email: 'ops@bluesky.example' });
  token = await service.tokenFor('AGT042');
  // The order and bookings of the document's request examples, so that "Try it out" finds them.
  const ticket = (ticketNumber: string) => ({
    ticketNumber,
    baseFare: '450.00',
    taxes: '120.50',
    coupons: [{ segmentId: 'S1' }],
  });
  await service.importOrders([
    order('ORD-1001', 'AGT042', 'EUR', [
      booking('ABC123', [segment('S1')], [passenger('P1', ticket('2201234567890'))]),
      booking('DEF456', [segment('S1')], [passenger('P1', ticket('2201234567891'))]),
    ]),
  ]);
  await service.importChanges([change('AIC-77', 'ORD-1001', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);

  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Every wait on the page (an element, a navigation) may take this long on a loaded machine: it waits on a state, never a fixed time.
  context.setDefaultTimeout(scaled(60_000));
  context.setDefaultNavigationTimeout(scaled(60_000));
  context.on('request', (request) => {
    requested.push(request.url());
  });
  // Anything not for the service is refused before it leaves the machine (and recorded above).
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    return LOOPBACK.has(url.hostname) ? route.continue() : route.abort('blockedbyclient');
  });
});

after(async () => {
  await context?.close();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
  await service?.close();
});

async function openDocs(): Promise<Page> {
  const page = await context.newPage();
  // The browser reports each thing the policy blocked as a securitypolicyviolation event.
  await page.exposeFunction('reportCspViolation', (text: string) => {
    cspViolations.push(text);
  });
  await page.addInitScript(() => {
    // Runs in the page (whose types this project does not compile against).
    const window = globalThis as any;
    window.document.addEventListener('securitypolicyviolation', (event: any) => {
      window.reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => {
    pageErrors.push(error.message);
  });
  const response = await page.goto(`${service.baseUrl}/docs`);
  assert.equal(response?.status(), 200);
  await page.waitForSelector('.opblock-summary-path');
  return page;
}

test('GET /docs renders the seven operations from /openapi.json, served by the service alone', { skip }, async () => {
  requireBrowser();
  const page = await openDocs();
  const paths = await page.locator('.opblock-summary-path').allInnerTexts();
  assert.deepEqual(paths.map((text) => text.trim()).sort(), [
    '/AirOrderCancel',
    '/AirOrderEventList',
    '/AirOrderInvoluntaryAccept',
    '/AirOrderInvoluntaryCancel',
    '/AirOrderRefund',
    '/AirOrderRefundQuote',
    '/AirOrderRetrieve',
  ]);
  assert.match(await page.locator('.info .title').innerText(), /airorder/);
  // The link under the title is the document agencies use, not a copy of the docs page's own.
  const link = page.locator('.info a.link, .info .url').first();
  assert.match((await link.innerText()).trim(), /^(https?:\/\/[^/]+)?\/openapi\.json$/);

  // An operation opens on its description, request example and documented responses.
  await page.locator('.opblock-summary-path', { hasText: '/AirOrderRetrieve' }).click();
  const operation = page.locator('.opblock.is-open');
  await operation.locator('.responses-table').first().waitFor();
  const codes = (await operation.locator('tr.response .response-col_status').allInnerTexts()).map(
    (text) => text.trim().split(/\s/)[0],
  );
  assert.deepEqual(codes, ['200', '400', '401', '403', '404', '413', '415', '429', '500', '503']);
  assert.match(await operation.innerText(), /OrderRetrieveRQ/);

  const docs = await service.request('/docs', { method: 'GET' });
  const policy = docs.headers.get('content-security-policy') ?? '';
  assert.match(policy, /default-src 'none'/);
  assert.doesNotMatch(policy, /https?:|\*/, 'the docs page may load nothing from elsewhere');
  // The API itself keeps the strict policy.
  const api = await service.post(
    '/AirOrderRetrieve',
    { OrderRetrieveRQ: { Query: { OrderID: 'ORD-1001', GdsBookingReference: ['ABC123'] } } },
    bearer(token),
  );
  assert.equal(api.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
  await page.close();
});

test('"Try it out" with a token calls the service from the page and shows its answer', { skip }, async () => {
  requireBrowser();
  const page = await openDocs();
  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux input[type=text]').fill(token);
  await page.locator('.modal-ux button.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();

  await page.locator('.opblock-summary-path', { hasText: '/AirOrderRetrieve' }).click();
  const operation = page.locator('.opblock.is-open');
  await operation.locator('button.try-out__btn').click();
  await operation.locator('button.execute').click();
  const status = operation.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  assert.equal((await status.innerText()).trim(), '200');
  const answer = await operation.locator('.live-responses-table').innerText();
  assert.match(answer, /"GdsBookingReference": "ABC123"/);
  assert.match(answer, /"Success": \{\}/);
  await page.close();
});

test('the page made requests to the service on loopback only, and broke no rule of its policy', { skip }, () => {
  requireBrowser();
  assert.ok(requested.length > 0, 'the browser requested something');
  const elsewhere = requested.filter((url) => !LOOPBACK.has(new URL(url).hostname) && !url.startsWith('data:'));
  assert.deepEqual(elsewhere, [], 'requests outside the service');
  const origin = new URL(service.baseUrl).origin;
  for (const url of requested.filter((candidate) => !candidate.startsWith('data:')))
    assert.equal(new URL(url).origin, origin, url);
  assert.ok(
    requested.some((url) => url.endsWith('/openapi.json')),
    'the page fetched the OpenAPI document',
  );
  assert.ok(!requested.some((url) => url.endsWith('/docs/json')), 'and no other copy of it');
  assert.ok(
    requested.some((url) => url.endsWith('/AirOrderRetrieve')),
    'Try it out called the operation',
  );
  assert.deepEqual(cspViolations, []);
  assert.deepEqual(pageErrors, []);
});
