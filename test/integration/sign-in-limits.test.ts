/**
 * The sign-in limits cannot be turned against operators, on both stores: an attempt an address's
 * limit refuses counts against nothing else (no email's tries, no row), an attempt an email's limit
 * refuses uses up no address's tries, a flood of sign-in posts from one address leaves the attempts
 * table within its bound (docs/security.md), and ended windows are removed on a timer, by the
 * service's clock. Clients come from addresses of their own (documentation ranges), injected.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { FAILURES_PER_ADDRESS, FAILURES_PER_EMAIL, LOGIN_WINDOW_MS } from '../../src/console/sign-in.js';
import { runSql } from '../../src/store/raw-sql.js';
import { postSignIn, signInFrom } from '../helpers/sign-in-from.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { until } from '../helpers/webhook-receiver.js';

const EMAIL = 'desk@airline.example';
const OTHER = 'night@airline.example';
const PASSWORD = 'correct horse battery';
let now = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  for (const email of [EMAIL, OTHER])
    await addOperator(service.store, () => new Date(now).toISOString(), { email, name: 'Desk', password: PASSWORD });
});

after(async () => {
  await service?.close();
});

// Each test starts after the windows of the one before have ended.
beforeEach(() => {
  now += LOGIN_WINDOW_MS + 1000;
});

async function attemptRows(): Promise<number> {
  const [row] = await runSql<{ rows: number | string }>(
    service.store.db,
    'select count(*) as rows from operator_sign_in_attempts',
    [],
  );
  return Number(row!.rows);
}

function errorLines(from: number): unknown[] {
  return service.logs.slice(from).filter((line) => Number(line.level) >= 50);
}

/** Uses up an address's tries: FAILURES_PER_ADDRESS wrong passwords, each for an email of its own. */
async function lockAddress(address: string): Promise<void> {
  for (let attempt = 0; attempt < FAILURES_PER_ADDRESS; attempt += 1)
    assert.equal(await signInFrom(service.app, address, `guess${attempt}@airline.example`, 'wrong password!'), 401);
  assert.equal(await signInFrom(service.app, address, 'one-more@airline.example', 'wrong password!'), 429);
}

test('five correct sign-ins from a locked address leave the operator able to sign in from another address', async () => {
  const logsBefore = service.logs.length;
  await lockAddress('203.0.113.10');
  for (let attempt = 0; attempt < 5; attempt += 1)
    assert.equal(
      await signInFrom(service.app, '203.0.113.10', EMAIL, PASSWORD),
      429,
      'the locked address is refused, the right password unchecked',
    );
  assert.equal(await signInFrom(service.app, '198.51.100.20', EMAIL, PASSWORD), 303, 'from another address');
  // The refusals used up none of the email's tries: its five wrong passwords are all still to come.
  for (let attempt = 0; attempt < FAILURES_PER_EMAIL; attempt += 1)
    assert.equal(await signInFrom(service.app, '198.51.100.20', EMAIL, 'wrong password!'), 401);
  assert.equal(await signInFrom(service.app, '198.51.100.20', EMAIL, PASSWORD), 429);
  assert.deepEqual(errorLines(logsBefore), [], 'no error-level log line');
});

test("attempts an email's limit refuses use up none of the address's tries", async () => {
  const logsBefore = service.logs.length;
  // Someone elsewhere uses up the email's tries.
  for (let attempt = 0; attempt < FAILURES_PER_EMAIL; attempt += 1)
    assert.equal(await signInFrom(service.app, '198.51.100.30', EMAIL, 'wrong password!'), 401);
  // From one shared address (a proxy's), its operator tries again and again: refused, unchecked.
  for (let attempt = 0; attempt < FAILURES_PER_ADDRESS + 10; attempt += 1)
    assert.equal(await signInFrom(service.app, '203.0.113.40', EMAIL, PASSWORD), 429);
  assert.equal(
    await signInFrom(service.app, '203.0.113.40', OTHER, PASSWORD),
    303,
    'another operator behind the same address is not locked out',
  );
  assert.deepEqual(errorLines(logsBefore), [], 'no error-level log line');
});

test('20,000 sign-in posts with random emails from one address leave at most 21 rows in the attempts table', async () => {
  const logsBefore = service.logs.length;
  const rowsBefore = await attemptRows();
  const tally: Record<number, number> = {};
  const posts = 20_000;
  // A few at a time, as a script on a handful of connections would.
  const inFlight = 16;
  let sent = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent < posts) {
        sent += 1;
        const status = await postSignIn(service.app, '203.0.113.66', `${randomUUID()}@airline.example`, 'guess');
        tally[status] = (tally[status] ?? 0) + 1;
      }
    }),
  );
  assert.deepEqual(tally, { 401: FAILURES_PER_ADDRESS, 429: posts - FAILURES_PER_ADDRESS });
  const added = (await attemptRows()) - rowsBefore;
  // The bound of docs/security.md within one window: the address's own row, and one per email it may try.
  assert.ok(added <= FAILURES_PER_ADDRESS + 1, `rows added: ${added}`);
  assert.deepEqual(errorLines(logsBefore), [], 'no error-level log line');
});

test("the counts of ended windows are removed on a timer, by the service's clock, refused attempts' included", async () => {
  await lockAddress('203.0.113.80');
  await signInFrom(service.app, '203.0.113.81', EMAIL, 'wrong password!');
  assert.ok((await attemptRows()) > 0);
  now += LOGIN_WINDOW_MS + 1000;
  // No sign-in comes: the timer alone removes them.
  assert.ok(await until(async () => (await attemptRows()) === 0, 10_000), `rows left: ${await attemptRows()}`);
});

test('the addresses of one IPv6 /64 share one limit; another /64 has its own, and IPv4 peers mapped to IPv6 count as IPv4', async () => {
  // A host may take any address of its /64: twenty wrong passwords, each from an address of its own.
  for (let attempt = 1; attempt <= FAILURES_PER_ADDRESS; attempt += 1)
    assert.equal(
      await signInFrom(service.app, `2001:db8:1:2::${attempt.toString(16)}`, `v6-${attempt}@airline.example`, 'wrong!'),
      401,
    );
  assert.equal(await signInFrom(service.app, '2001:db8:1:2:ffff:ffff:ffff:ffff', EMAIL, PASSWORD), 429);
  assert.equal(await signInFrom(service.app, '2001:db8:1:3::1', EMAIL, PASSWORD), 303, 'the next /64');
  // 192.0.2.50 seen on a socket bound to `::` is still one IPv4 address, not part of a block of all IPv4.
  await lockAddress('::ffff:192.0.2.50');
  assert.equal(await signInFrom(service.app, '192.0.2.50', EMAIL, PASSWORD), 429, 'the same address, unmapped');
  assert.equal(await signInFrom(service.app, '::ffff:192.0.2.51', EMAIL, PASSWORD), 303, 'its neighbour');
});
