import type { Clock } from '../runtime/clock.js';
import type { Store } from '../store/store.js';
import { normalEmail } from './operator-accounts.js';
import { DECOY_HASH, verifyPassword } from './password-hash.js';

/** Wrong passwords allowed within the window: per email (guessing one password), per address (trying many emails). */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const FAILURES_PER_EMAIL = 5;
export const FAILURES_PER_ADDRESS = 20;

// No operator's email is longer (operator-accounts.ts); a longer one still counts, under its first characters.
const LONGEST_EMAIL = 254;

export type SignInResult = { ok: true; email: string } | { ok: false; limited: boolean };

/**
 * Checks an email and password. The attempt is counted in the store before anything is checked, so
 * that attempts sent at once, to any process, are checked only as far as the limits allow; the
 * rest are refused unchecked. An unknown email, a disabled operator and a wrong password are the
 * same failure, counted alike and answered alike, after the same work (a decoy hash is checked),
 * so that the answer does not tell which emails exist. A success takes back its own attempt and
 * nothing more: the failures counted before it stay counted until their window ends
 * (docs/decisions.md, "Limits on wrong passwords").
 */
export async function signIn(
  store: Store,
  clock: Clock,
  input: { email: string; password: string; address: string },
): Promise<SignInResult> {
  const email = normalEmail(input.email);
  const emailKey = `email:${email.slice(0, LONGEST_EMAIL)}`;
  const addressKey = `address:${input.address}`;
  const now = clock();
  const windowsSince = new Date(Date.parse(now) - LOGIN_WINDOW_MS).toISOString();
  // The email's key first, everywhere: concurrent attempts then take the keys' rows in one order.
  const counted = await store.write((tx) => tx.countSignInAttempts([emailKey, addressKey], now, windowsSince));
  const attemptsOf = (key: string) => counted.find((count) => count.key === key)?.attempts ?? Number.POSITIVE_INFINITY;
  if (attemptsOf(emailKey) > FAILURES_PER_EMAIL || attemptsOf(addressKey) > FAILURES_PER_ADDRESS) {
    return { ok: false, limited: true };
  }

  const operator = email.length <= LONGEST_EMAIL ? await store.read.findOperator(email) : null;
  const matches = await verifyPassword(input.password, operator?.passwordHash ?? DECOY_HASH);
  if (operator && matches && operator.disabledAt === null) {
    await store.write((tx) => tx.takeBackSignInAttempts(counted));
    return { ok: true, email };
  }
  await store.write((tx) => tx.purgeSignInAttempts(windowsSince));
  return { ok: false, limited: false };
}
