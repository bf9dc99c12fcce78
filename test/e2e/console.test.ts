/**
 * The operator's console in a real headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core, launched as the /docs test does), against the service on loopback: sign in,
 * find an order by ticket number, accept a change and cancel another booking with refund, see both
 * in the timeline, redeliver a failed webhook, upload an import with an error and one followed as it runs, sign out; forged
 * forms, the cookie against the API, the token against the console, sign-in limits. axe-core,
 * injected into every page, finds no serious or critical violation; no request leaves loopback;
 * each page is photographed: into a temporary folder in a test run, so that `npm test` leaves the
 * checkout as it was, and into docs/console/ (shown in docs/console.md) by `npm run screenshots`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { addOperator } from '../../src/console/operator-accounts.js';
import { addEndpoint } from '../../src/service/webhook-endpoints.js';
import { runSql } from '../../src/store/raw-sql.js';
import { WebhookDispatcher } from '../../src/webhook-delivery/dispatcher.js';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { bearer, booking, change, order, passenger, segment } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.js';
import { scaled } from '../helpers/time-scale.js';

const CHROMIUM = '/usr/bin/chromium';
const missing = !fs.existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
const skip =
  missing && !inCi
    ? `${CHROMIUM} not found: install it with "apt-get install -y chromium" to run the console test`
    : false;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const SHOTS =
  process.env.CONSOLE_SCREENSHOTS === 'docs'
    ? path.join(PROJECT_ROOT, 'docs', 'console')
    : fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-console-shots-'));
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EMAIL = 'desk@airline.example';
const PASSWORD = 'a long console password';
const OPEN = { allowHttp: true, allowPrivateNetworks: true };
const quiet = { info: () => {}, warn: () => {} };

let service: TestService;
let receiver: Receiver;
let dispatcher: WebhookDispatcher;
let endpointId: string;
let token: string;
let context: BrowserContext;
let page: Page;
let profile: string;
const requested: string[] = [];
const cspViolations: string[] = [];
const pageErrors: string[] = [];
const axeFindings: string[] = [];
/** Pages axe-core looked at, with how many rules it checked on each (it did run). */
const axeRuns: { name: string; rules: number }[] = [];

function requireBrowser(): void {
  if (missing) assert.fail(`${CHROMIUM} is missing in CI: .ci/run installs Debian's chromium before npm test`);
}

before(async () => {
  if (missing) return;
  service = await startTestService({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  await service.addAgency('AGT042', { name: 'Blue Sky Travel', iataNumber: '12345678', email: 'ops@bluesky.example' });
  token = await service.tokenFor('AGT042');
  const ticket = (ticketNumber: string) => ({
    ticketNumber,
    baseFare: '450.00',
    taxes: '120.50',
    coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
  });
  await service.importOrders([
    order('ORD-1001', 'AGT042', 'EUR', [
      booking('ABC123', [segment('S1')], [passenger('P1', ticket('2201234567890'))]),
      booking('DEF456', [segment('S1')], [passenger('P1', ticket('2201234567891'))]),
    ]),
    order('ORD-1002', 'AGT042', 'EUR', [
      booking('GHI789', [segment('S1')], [passenger('P1', ticket('2201234567892'))]),
    ]),
  ]);
  await service.importChanges([
    change('AIC-77', 'ORD-1001', 'ABC123', ['S1'], [segment('S1B', 1, 14)]),
    change('AIC-78', 'ORD-1001', 'DEF456', ['S1'], [segment('S1C', 2, 9)]),
  ]);
  await addOperator(service.store, () => new Date().toISOString(), {
    email: EMAIL,
    name: 'Dana Desk',
    password: PASSWORD,
  });
  receiver = await startReceiver();
  endpointId = (
    await addEndpoint(service.store, () => new Date().toISOString(), OPEN, { agencyId: 'AGT042', url: receiver.url })
  ).endpointId;
  // No retries: the first failed attempt leaves the delivery FAILED, for Redeliver to act on.
  dispatcher = new WebhookDispatcher(
    service.store,
    () => new Date().toISOString(),
    { retrySchedule: [], timeoutMs: 2000, policy: OPEN },
    quiet,
    () => {},
  );

  fs.mkdirSync(SHOTS, { recursive: true });
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
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
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    return LOOPBACK.has(url.hostname) ? route.continue() : route.abort('blockedbyclient');
  });
  page = await context.newPage();
  await page.exposeFunction('reportCspViolation', (text: string) => {
    cspViolations.push(text);
  });
  await page.addInitScript(() => {
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
});

after(async () => {
  await context?.close();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
  if (!SHOTS.startsWith(PROJECT_ROOT)) fs.rmSync(SHOTS, { recursive: true, force: true });
  await dispatcher?.stop(1000);
  await receiver?.close();
  await service?.close();
});

/** axe-core in the page (evaluated by the browser's debugger, not as a page script, so the page's policy stays as it is). */
async function checkAccessibility(name: string): Promise<void> {
  await page.evaluate(AXE);
  const checked = (await page.evaluate(async () => {
    const window = globalThis as any;
    const result = await window.axe.run(window.document);
    return {
      rules: result.passes.length + result.violations.length + result.incomplete.length + result.inapplicable.length,
      violations: result.violations.map((violation: any) => ({
        id: violation.id,
        impact: violation.impact,
        targets: violation.nodes.map((node: any) => node.target.join(' ')),
      })),
    };
  })) as { rules: number; violations: { id: string; impact: string; targets: string[] }[] };
  axeRuns.push({ name, rules: checked.rules });
  for (const violation of checked.violations) {
    if (violation.impact === 'serious' || violation.impact === 'critical')
      axeFindings.push(`${name}: ${violation.id} (${violation.impact}) at ${violation.targets.join(', ')}`);
  }
}

/** Checked for accessibility and photographed for docs/console.md. */
async function look(name: string): Promise<void> {
  await checkAccessibility(name);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function deliveryStatuses(): Promise<string[]> {
  return (
    await runSql<{ status: string }>(
      service.store.reader,
      'select status from webhook_deliveries where endpoint_id = ? order by event_id',
      [endpointId],
    )
  ).map((row) => row.status);
}

async function drain(): Promise<void> {
  await until(async () => {
    await dispatcher.tick();
    await dispatcher.settle();
    return (await deliveryStatuses()).every((status) => status !== 'PENDING');
  }, 10_000);
}

test(
  'an operator signs in, finds an order by ticket number, accepts one change and cancels another booking with refund',
  { skip },
  async () => {
    requireBrowser();
    const response = await page.goto(`${service.baseUrl}/console`);
    assert.equal(response?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/console/login', 'without a session the console asks to sign in');
    await look('login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(`${service.baseUrl}/console`);
    assert.match(await page.locator('h1').innerText(), /Overview/);
    assert.match(await page.locator('#main').innerText(), /AIC-77/);
    await look('overview');

    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByLabel(/ticket number/).fill('2201234567891');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=2201234567891/);
    await look('orders');
    await page.getByRole('link', { name: 'ORD-1001' }).click();
    await page.waitForURL(`${service.baseUrl}/console/orders/ORD-1001`);
    assert.match(await page.locator('#main').innerText(), /Booking ABC123 · CONFIRMED/);

    await page.locator('a[href$="/bookings/ABC123/accept"]').click();
    await look('accept-confirmation');
    await page.getByLabel(/Reason/).fill('Agency asked by phone to keep the new flight');
    await page.getByRole('button', { name: 'Accept change' }).click();
    await page.waitForURL(/\/console\/orders\/ORD-1001\?notice=/);
    assert.match(await page.locator('.notice').innerText(), /ABC123: change accepted/);

    await page.locator('a[href$="/bookings/DEF456/cancel"]').click();
    const confirmation = await page.locator('#main').innerText();
    assert.match(confirmation, /Refund quote: 570\.50 EUR \(FULL\)/);
    await look('cancel-confirmation');
    // The reason is required: the browser does not send the form without it.
    await page.getByRole('button', { name: 'Cancel with refund' }).click();
    assert.match(page.url(), /\/cancel$/);
    await page.getByLabel(/Reason/).fill('Passenger cannot travel on the new date');
    await page.getByRole('button', { name: 'Cancel with refund' }).click();
    await page.waitForURL(/\/console\/orders\/ORD-1001\?notice=/);

    const timeline = await page.locator('ol.timeline').innerText();
    assert.match(
      timeline,
      /by operator desk@airline\.example via AirOrderInvoluntaryAccept\s*Reason: Agency asked by phone to keep the new flight/,
    );
    assert.match(
      timeline,
      /by operator desk@airline\.example via AirOrderInvoluntaryCancel\s*Reason: Passenger cannot travel on the new date/,
    );
    assert.match(await page.locator('#main').innerText(), /Booking DEF456 · CANCELED \(INVOLUNTARY\)/);
    await look('order');
  },
);

test("a failed webhook delivery is redelivered from the agency's page", { skip }, async () => {
  requireBrowser();
  receiver.script([], 500);
  await drain();
  const failed = await deliveryStatuses();
  assert.ok(failed.length > 0 && failed.every((status) => status === 'FAILED'), failed.join());
  receiver.script([], 204);
  const before = receiver.received.length;

  await page.getByRole('link', { name: 'Agencies' }).click();
  await look('agencies');
  await page.getByRole('link', { name: 'AGT042' }).click();
  await page.waitForURL(`${service.baseUrl}/console/agencies/AGT042`);
  await look('agency');
  await page
    .getByRole('button', { name: /^Redeliver event/ })
    .first()
    .click();
  await page.waitForURL(/notice=/);
  assert.match(await page.locator('.notice').innerText(), /queued again/);
  const journal = await runSql<{ email: string; target: string }>(
    service.store.reader,
    "select email, target from operator_actions where action = 'webhook redeliver'",
    [],
  );
  assert.deepEqual(
    journal.map((row) => row.email),
    [EMAIL],
    "the redelivery is recorded with the operator's email",
  );
  assert.match(journal[0]!.target, new RegExp(` ${endpointId}$`));
  await drain();
  assert.ok((await deliveryStatuses()).includes('DELIVERED'));
  assert.equal(receiver.received.length, before + 1);
});

test('an import with an error names the record and field and stores nothing', { skip }, async () => {
  requireBrowser();
  await page.getByRole('link', { name: 'Imports' }).click();
  const file = JSON.stringify([
    order('ORD-2001', 'AGT042', 'EUR', [booking('JKL012', [segment('S1')], [passenger('P1', null)])]),
    order('ORD-2002', 'AGT042', 'EURO', [booking('MNO345', [segment('S1')], [passenger('P1', null)])]),
  ]);
  await page
    .getByLabel('File', { exact: true })
    .setInputFiles({ name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  // The import's own page follows it, and shows the outcome once it has finished.
  await page.waitForURL(/\/console\/imports\/imp_[0-9a-f]+$/);
  const error = await page.locator('#import-error').innerText();
  assert.match(error, /^error: record 2 \(order ORD-2002\): currency /);
  assert.deepEqual(
    await runSql(service.store.reader, "select order_id from orders where order_id like 'ORD-200%'", []),
    [],
  );
  await look('imports');
});

test("an import's page follows its progress as it runs, and the audit trail names the operator", { skip }, async () => {
  requireBrowser();
  await page.getByRole('link', { name: 'Imports' }).click();
  // Large enough that the import is still running seconds after the page has shown its first counts.
  const count = 60_000;
  const lines = Array.from({ length: count }, (_, index) =>
    JSON.stringify(
      order(`ORD-3${String(index).padStart(5, '0')}`, 'AGT042', 'EUR', [
        booking(`P${String(index).padStart(5, '0')}`, [segment('S1')], [passenger('P1', null)]),
      ]),
    ),
  );
  await page.getByLabel('File', { exact: true }).setInputFiles({
    name: 'many-orders.ndjson',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(`${lines.join('\n')}\n`),
  });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  await page.waitForURL(/\/console\/imports\/imp_[0-9a-f]+$/);
  const importUrl = page.url();
  const bar = page.getByRole('progressbar');
  assert.equal(await bar.count(), 1);
  assert.match(
    await page.locator('#import-label').innerText(),
    /^(Reading and checking the orders|Storing the orders|Finished)$/,
  );
  // The script changes the counts in place: the same page, without a reload, shows more records.
  const first = await page.locator('#import-counts').innerText();
  await page.waitForFunction(
    (text) => {
      const document = (globalThis as any).document;
      return (
        document.getElementById('import-counts')?.textContent !== text ||
        document.getElementById('import-result') !== null
      );
    },
    first,
    { timeout: scaled(120_000) },
  );
  assert.equal(await page.locator('#import-result').count(), 0, 'still running: the counts moved on without a reload');
  assert.equal(page.url(), importUrl);
  await look('import-progress');
  await page.locator('#import-result').waitFor({ timeout: scaled(180_000) });
  assert.match(await page.locator('#import-result').innerText(), /Orders imported: \{"imported":60000,"replaced":0\}/);
  assert.equal(await bar.getAttribute('value'), String(count));
  await page.goto(`${service.baseUrl}/console/orders/ORD-300000`);
  assert.match(
    await page.locator('ol.timeline').innerText(),
    /ORDER_IMPORTED · by operator desk@airline\.example via orders import/,
  );
});

test(
  'forged forms are refused, the cookie does not open the API, sign-out ends the session, a token does not open the console',
  { skip },
  async () => {
    requireBrowser();
    // A form sent with the browser's cookie but without the page's token, as another site would send it.
    const forged = await context.request.post(`${service.baseUrl}/console/agencies`, {
      form: { agencyId: 'FORGED', name: 'Forged' },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    assert.deepEqual(
      await runSql(service.store.reader, "select agency_id from agencies where agency_id = 'FORGED'", []),
      [],
    );

    const cookies = (await context.cookies(service.baseUrl + '/console')).filter(
      (cookie) => cookie.name === 'airorder_console',
    );
    assert.equal(cookies.length, 1);
    assert.equal(cookies[0]!.httpOnly, true);
    assert.equal(cookies[0]!.sameSite, 'Strict');
    const api = await service.post(
      '/AirOrderRetrieve',
      { OrderRetrieveRQ: { Query: { OrderID: 'ORD-1001', GdsBookingReference: ['ABC123'] } } },
      { cookie: `airorder_console=${cookies[0]!.value}` },
    );
    assert.equal(api.status, 401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${service.baseUrl}/console/login`);
    await page.goto(`${service.baseUrl}/console/orders`);
    assert.equal(new URL(page.url()).pathname, '/console/login');
    const withToken = await context.request.get(`${service.baseUrl}/console/orders`, {
      headers: bearer(token),
      maxRedirects: 0,
    });
    assert.equal(withToken.status(), 303);
  },
);

test('wrong passwords in the sign-in form are limited', { skip }, async () => {
  requireBrowser();
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await page.goto(`${service.baseUrl}/console/login`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.match(await page.getByRole('alert').innerText(), /The email or the password is wrong/);
  }
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  assert.match(await page.getByRole('alert').innerText(), /Too many failed sign-ins/);
  await checkAccessibility('login-limited');
});

test(
  'every page: requests to the service on loopback only, no policy violation, no serious or critical accessibility finding',
  { skip },
  () => {
    requireBrowser();
    assert.ok(requested.length > 10);
    const origin = new URL(service.baseUrl).origin;
    assert.deepEqual(
      requested.filter((url) => new URL(url).origin !== origin),
      [],
      'requests outside the service',
    );
    assert.ok(requested.some((url) => url.endsWith('/console/assets/console.css')));
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(
      axeRuns.map((run) => run.name),
      [
        'login',
        'overview',
        'orders',
        'accept-confirmation',
        'cancel-confirmation',
        'order',
        'agencies',
        'agency',
        'imports',
        'import-progress',
        'login-limited',
      ],
    );
    for (const run of axeRuns) assert.ok(run.rules > 20, `axe-core checked ${run.name}`);
    assert.deepEqual(axeFindings, []);
  },
);
