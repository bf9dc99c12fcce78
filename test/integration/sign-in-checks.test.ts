/**
 * signIn (sign-in.ts) on the store, called as the sign-in route calls it, with its clock in hand:
 * the answers for a right, a wrong and an unknown sign-in, the limits per email and per address at
 * their bounds, what a success takes back, and the email's length bound.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { RememberedRefusals } from '../../src/console/remembered-refusals.js';
import { FAILURES_PER_ADDRESS, FAILURES_PER_EMAIL, LOGIN_WINDOW_MS, signIn } from '../../src/console/sign-in.js';
import { runSql } from '../../src/store/raw-sql.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'checks@airline.example';
const PASSWORD = 'correct horse battery';
// The longest email an operator may have: 254 characters.
const LONGEST = `${'l'.repeat(254 - '@airline.example'.length)}@airline.example`;
let now = Date.parse('2026-11-25T08:00:00.000Z');
const clock = () => new Date(now).toISOString();
let service: TestService;
let refusals: RememberedRefusals;
let address = 0;

before(async () => {
  service = await startTestService({ clock });
  await addOperator(service.store, clock, { email: EMAIL, name: 'Checks Desk', password: PASSWORD });
  await addOperator(service.store, clock, { email: LONGEST, name: 'Long Desk', password: PASSWORD });
});

after(async () => {
  await service.close();
});

beforeEach(async () => {
  await runSql(service.store.db, 'delete from operator_sign_in_attempts', []);
  refusals = new RememberedRefusals();
  address += 1;
});

const from = () => `198.51.100.${address}`;
const attempt = (email: string, password: string, peer = from()) =>
  signIn(service.store, clock, refusals, { email, password, address: peer });

test('the documented limits: 5 wrong passwords per email and 20 per address in 15 minutes', () => {
  assert.equal(FAILURES_PER_EMAIL, 5);
  assert.equal(FAILURES_PER_ADDRESS, 20);
  assert.equal(LOGIN_WINDOW_MS, 900_000);
});

test('the right password signs in under the email as stored; a wrong one, an unknown email and a disabled operator fail alike', async () => {
  assert.deepEqual(await attempt('  Checks@Airline.EXAMPLE ', PASSWORD), { ok: true, email: EMAIL });
  assert.deepEqual(await attempt(EMAIL, 'wrong horse battery'), { ok: false, limited: false });
  assert.deepEqual(await attempt('nobody@airline.example', PASSWORD), { ok: false, limited: false });
  await runSql(service.store.db, 'update operators set disabled_at = ? where email = ?', [clock(), EMAIL]);
  try {
    assert.deepEqual(await attempt(EMAIL, PASSWORD), { ok: false, limited: false });
  } finally {
    await runSql(service.store.db, 'update operators set disabled_at = null where email = ?', [EMAIL]);
  }
});

test('the fifth wrong password of an email is checked, the sixth attempt is refused unchecked, from any address', async () => {
  for (let index = 1; index <= FAILURES_PER_EMAIL; index++)
    assert.deepEqual(await attempt(EMAIL, 'wrong', `192.0.2.${index}`), { ok: false, limited: false }, `${index}`);
  assert.deepEqual(await attempt(EMAIL, PASSWORD, '192.0.2.99'), { ok: false, limited: true });
  assert.equal(refusals.size, 1, 'the refusal is remembered');
  // Remembered: refused again without the store, even once the rows are gone, for a minute.
  await runSql(service.store.db, 'delete from operator_sign_in_attempts', []);
  assert.deepEqual(await attempt(EMAIL, PASSWORD, '192.0.2.98'), { ok: false, limited: true });
  now += 60_000;
  assert.deepEqual(await attempt(EMAIL, PASSWORD, '192.0.2.97'), { ok: true, email: EMAIL });
  assert.equal(refusals.size, 0, 'a success forgets its keys');
});

test('a success takes back its own attempt only: the failures before it stay counted', async () => {
  for (let index = 1; index < FAILURES_PER_EMAIL; index++) await attempt(EMAIL, 'wrong');
  assert.deepEqual(await attempt(EMAIL, PASSWORD), { ok: true, email: EMAIL });
  assert.deepEqual(await attempt(EMAIL, 'wrong'), { ok: false, limited: false });
  assert.deepEqual(await attempt(EMAIL, PASSWORD), { ok: false, limited: true });
});

test('the twentieth wrong sign-in of an address is checked, the next is refused, whatever the email', async () => {
  for (let index = 1; index <= FAILURES_PER_ADDRESS; index++)
    assert.deepEqual(
      await attempt(`guess${index}@airline.example`, 'wrong'),
      { ok: false, limited: false },
      `${index}`,
    );
  assert.deepEqual(await attempt(EMAIL, PASSWORD), { ok: false, limited: true });
  // The email's own tries were not used by the address's refusal.
  assert.deepEqual(await attempt(EMAIL, PASSWORD, '192.0.2.200'), { ok: true, email: EMAIL });
});

test('an operator with the longest email signs in; longer emails fail, and count under their first 254 characters', async () => {
  assert.deepEqual(await attempt(LONGEST, PASSWORD), { ok: true, email: LONGEST });
  assert.deepEqual(await attempt(`${LONGEST}x`, PASSWORD), { ok: false, limited: false });
  for (let index = 2; index <= FAILURES_PER_EMAIL; index++)
    assert.deepEqual(await attempt(`${LONGEST}${index}`, PASSWORD, `192.0.2.${index + 10}`), {
      ok: false,
      limited: false,
    });
  assert.deepEqual(await attempt(`${LONGEST}zz`, PASSWORD, '192.0.2.50'), { ok: false, limited: true });
  assert.deepEqual(await attempt(LONGEST, PASSWORD, '192.0.2.51'), { ok: false, limited: true });
});
