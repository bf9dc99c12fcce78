import type { Clock } from '../service/clock.js';
import type { Store } from '../store/store.js';
import { normalEmail } from './operator-accounts.js';
import { DECOY_HASH, verifyPassword } from './password-hash.js';

/** Wrong passwords allowed within the window: per email (guessing one password), per address (trying many emails). */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const FAILURES_PER_EMAIL = 5;
export const FAILURES_PER_ADDRESS = 20;

export type SignInResult = { ok: true; email: string } | { ok: false; limited: boolean };

/**
 * Checks an email and password. An unknown email, a disabled operator and a wrong password are the
 * same failure, counted alike and answered alike, after the same work (a decoy hash is checked),
 * so that the answer does not tell which emails exist. Once the limit is reached nothing is checked.
 */
export async function signIn(store: Store, clock: Clock, input: { email: string; password: string; address: string }): Promise<SignInResult> {
  const email = normalEmail(input.email);
  const keys = [`email:${email}`, `address:${input.address}`];
  const now = clock();
  const since = new Date(Date.parse(now) - LOGIN_WINDOW_MS).toISOString();
  const [byEmail, byAddress] = await Promise.all(keys.map((key) => store.read.loginFailures.count(key, since)));
  if (byEmail! >= FAILURES_PER_EMAIL || byAddress! >= FAILURES_PER_ADDRESS) return { ok: false, limited: true };

  const operator = email.length <= 254 ? await store.read.operators.find(email) : null;
  const matches = await verifyPassword(input.password, operator?.passwordHash ?? DECOY_HASH);
  if (operator && matches && operator.disabledAt === null) {
    await store.write((tx) => tx.loginFailures.clear(keys[0]!));
    return { ok: true, email };
  }
  await store.write(async (tx) => {
    await tx.loginFailures.purge(since);
    await tx.loginFailures.record(keys, now);
  });
  return { ok: false, limited: false };
}
